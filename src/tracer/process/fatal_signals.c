/* Fatal signals: when the application dies of SIGSEGV, SIGABRT (ROCR's
 * asserts), SIGBUS, SIGFPE, SIGILL, or of SIGINT/SIGTERM/SIGHUP it does not
 * handle itself, write what every thread recorded plus the summary, then
 * let the signal kill the process as it would have.  Handlers are only
 * installed where the disposition is still the default, so an
 * application's own handlers win. */
#include "fatal_signals.h"

#include "core/sink.h"
#include "core/tracer.h"
#include "gpu/gpu.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

static const int fatal[] = {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL,
                            SIGINT,  SIGTERM, SIGHUP, SIGQUIT};
static volatile sig_atomic_t handling;

static void on_fatal(int sig) {
  if (!handling) {
    handling = 1;
    rtg_enter();
    rtg_tls.no_wait = true; /* a handler cannot wait for the writer */
    /* what the GPU still had is lost with the process: say how much */
    rtg_count(RTG_CNT_UNFINISHED, rtg_gpu_inflight());
    rtg_sink_dump_fatal();
  }
  /* SA_RESETHAND made the disposition the default again */
  signal(sig, SIG_DFL);
  raise(sig);
}

void rtg_fatal_signals_install(void) {
  for (size_t i = 0; i < sizeof fatal / sizeof *fatal; i++) {
    struct sigaction old;
    if (sigaction(fatal[i], NULL, &old) != 0) continue;
    if (old.sa_handler != SIG_DFL || (old.sa_flags & SA_SIGINFO)) continue;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fatal;
    sa.sa_flags = SA_RESETHAND | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    sigaction(fatal[i], &sa, NULL);
  }
}
