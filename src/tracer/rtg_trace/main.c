/* rtg-trace: run an application under rtg_tracer.so.
 *
 *   rtg-trace [options] -- ./app args...
 *
 * Every option maps to one RTG_* variable (or HSA_TOOLS_LIB, LD_PRELOAD and
 * ROCPROFILER_REGISTER_LIBRARY); the variables already in the environment
 * are kept unless an option overrides them.  The application runs as a
 * child; its exit status is ours, and a signal that killed it kills us the
 * same way (after the optional conversion), so scripts see no difference.
 * SIGTERM, SIGINT and SIGHUP sent to us are forwarded to it (signals.c).
 * Exit status: the application's; 2 usage; 127 the application could not
 * be started; 1 the tracer library could not be found (or another failure
 * of the launcher's, said on stderr). */
#define _GNU_SOURCE
#include "launcher.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

/* Die of the signal that killed the application, as it did. */
static int die_of(int sig) {
  fflush(NULL);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = SIG_DFL;
  sigaction(sig, &sa, NULL);
  sigset_t m;
  sigemptyset(&m);
  sigaddset(&m, sig);
  sigprocmask(SIG_UNBLOCK, &m, NULL);
  /* no core file of our own: the application's is the one that matters */
  struct rlimit nocore = {0, 0};
  setrlimit(RLIMIT_CORE, &nocore);
  raise(sig);
  return 128 + sig;
}

int main(int argc, char **argv) {
  rtg_find_self_dir();
  launch l = {0};
  int status = rtg_options_parse(argc, argv, &l);
  if (status >= 0) return status;
  char prefix[PATH_MAX];
  if (!rtg_setup(&l, prefix, sizeof prefix)) return 1;

  const char *program = argv[l.program];
  time_t started = time(NULL);
  fflush(stdout);
  rtg_signals_before_fork();
  pid_t pid = fork();
  if (pid < 0) {
    rtg_fail("fork to run", program, errno);
    if (*l.list) unlink(l.list);
    return 1;
  }
  if (!pid) {
    rtg_signals_child();
    execvp(program, argv + l.program);
    rtg_fail("run", program, errno);
    _exit(127);
  }
  rtg_signals_running(pid);
  int st;
  while (waitpid(pid, &st, 0) < 0) {
    if (errno != EINTR) {
      rtg_fail("wait for", program, errno);
      return 1;
    }
  }
  rtg_signals_done();
  rtg_after(&l, prefix, started - 1);
  if (WIFSIGNALED(st)) return die_of(WTERMSIG(st));
  return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}
