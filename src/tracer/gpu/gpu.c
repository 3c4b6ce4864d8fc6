/* The GPU side's setup, end and fork, each in one written order. */
#include "gpu.h"

#include "destroy_rescue.h"

#include "gpu_op.h"

void rtg_gpu_init(void) {
  rtg_kernel_names_init(); /* before any executable is frozen and run */
  rtg_waiters_restart();   /* after a finished trace (hsa_shut_down) */
  rtg_sigtrack_init();
  rtg_signal_hooks_init();
  rtg_op_times_hooks_init();
  rtg_queue_intercept_init();
  rtg_copies_init();
}

void rtg_gpu_finish(int ms) {
  rtg_waiters_finish(ms);
  if (rtg_real.hsa_signal_destroy) rtg_tool_signals_destroy();
}

void rtg_gpu_unload(void) {
  rtg_queues_unload();
}

void rtg_gpu_quiesce(int ms) {
  rtg_waiters_quiesce(ms);
}

uint64_t rtg_gpu_inflight(void) {
  return rtg_waiters_inflight();
}

void rtg_gpu_after_fork(void) {
  rtg_sigtrack_after_fork();
  rtg_op_pool_after_fork();
  rtg_waiters_after_fork();
  rtg_copies_after_fork();
  rtg_async_after_fork();
  rtg_queues_after_fork();
  rtg_destroy_rescue_after_fork();
  rtg_kernel_names_after_fork();
}
