/* fork: one set of handlers for the whole tracer, so the child resets its
 * state in one written order (lttng-ust's after-fork handling).  The
 * parent's records, threads and file are the parent's: the child keeps
 * nothing of them and starts its own writer on its own file last, once
 * everything it may write about is consistent again. */
#include "fork.h"

#include "core/sink.h"
#include "core/thread_state.h"
#include "core/got_hook.h"
#include "gpu/gpu.h"
#include "hsa/hsa_side.h"

#include <pthread.h>
#include <stdbool.h>

static void prepare(void) {
  rtg_sink_fork_prepare(); /* no drain in the middle of the fork */
}

static void parent(void) {
  rtg_sink_fork_parent();
}

static void child(void) {
  rtg_thread_state_after_fork(); /* pid and this thread's tid */
  rtg_got_after_fork();          /* its lock */
  rtg_memory_after_fork();       /* the parent's reserved and managed ranges */
  rtg_gpu_after_fork();          /* no op, waiter or queue of the parent's */
  rtg_sink_fork_child();         /* last: its own file and writer */
}

void rtg_fork_handlers_install(void) {
  static bool installed; /* OnLoad runs again after hsa_shut_down and a new hsa_init */
  if (!installed) installed = pthread_atfork(prepare, parent, child) == 0;
}
