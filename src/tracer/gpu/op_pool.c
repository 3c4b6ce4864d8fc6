/* GPU ops and tool signals, each from a pool.  Ops are allocated a block
 * at a time and recycled, never freed: a thread that looked an op up
 * before it finished still finds memory, and its claim fails on the
 * changed generation (completion.c).  Tool signals stand in for packets
 * without a signal and for shared ones (sigtrack.c); one is reused only
 * after its op completed, so a stale packet never decrements another
 * op's signal. */
#include "gpu_op.h"

#include <hsa/amd_hsa_signal.h>

#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t pool_mu = PTHREAD_MUTEX_INITIALIZER;
static rtg_op *free_ops;
static hsa_signal_t *free_signals;
static size_t n_free_signals, cap_free_signals;

rtg_op *rtg_op_alloc(void) {
  pthread_mutex_lock(&pool_mu);
  rtg_op *op = free_ops;
  if (op) free_ops = op->next;
  pthread_mutex_unlock(&pool_mu);
  if (!op) {
    /* a block at a time: rarely allocates once warm */
    enum { BLOCK = 256 };
    rtg_op *blk = calloc(BLOCK, sizeof *blk);
    if (!blk) return NULL;
    pthread_mutex_lock(&pool_mu);
    for (int i = 1; i < BLOCK; i++) {
      blk[i].next = free_ops;
      free_ops = &blk[i];
    }
    pthread_mutex_unlock(&pool_mu);
    op = &blk[0];
  }
  /* the new life's claim first: a thread still holding the last one's
   * fails to claim it from now on; then the rest, which only a claimer
   * reads */
  uint32_t gen = (atomic_load_explicit(&op->claim, memory_order_relaxed) >> 2) + 1;
  atomic_store_explicit(&op->claim, gen << 2, memory_order_relaxed);
  atomic_store_explicit(&op->queued, false, memory_order_relaxed);
  memset(&op->next, 0, sizeof *op - offsetof(rtg_op, next));
  return op;
}

void rtg_op_free(rtg_op *op) {
  pthread_mutex_lock(&pool_mu);
  op->next = free_ops;
  free_ops = op;
  pthread_mutex_unlock(&pool_mu);
}

/* Without an event: the waiter and the forwarding read a tool signal's
 * memory and nobody blocks on it, so the GPU need not raise an interrupt
 * at every packet that carries one (a HIP 5 kernel's, most of them), and
 * no thread blocked on any other signal is woken by it. */
static hsa_status_t tool_signal_create(hsa_signal_t *s) {
  if (rtg_real.hsa_amd_signal_create &&
      rtg_real.hsa_amd_signal_create(1, 0, NULL, HSA_AMD_SIGNAL_AMD_GPU_ONLY, s) ==
          HSA_STATUS_SUCCESS)
    return HSA_STATUS_SUCCESS;
  return rtg_real.hsa_signal_create(1, 0, NULL, s);
}

hsa_signal_t rtg_tool_signal_get(void) {
  hsa_signal_t s = {0};
  pthread_mutex_lock(&pool_mu);
  if (n_free_signals) s = free_signals[--n_free_signals];
  pthread_mutex_unlock(&pool_mu);
  if (!s.handle && tool_signal_create(&s) != HSA_STATUS_SUCCESS) s.handle = 0;
  return s;
}

void rtg_tool_signal_put(hsa_signal_t s) {
  /* on its memory: nobody waits on a tool signal (no event to set) */
  __atomic_store_n(&((amd_signal_t *)(uintptr_t)s.handle)->value, 1, __ATOMIC_RELEASE);
  pthread_mutex_lock(&pool_mu);
  if (n_free_signals == cap_free_signals) {
    size_t nc = cap_free_signals ? cap_free_signals * 2 : 64;
    hsa_signal_t *n = realloc(free_signals, nc * sizeof *n);
    if (n) free_signals = n, cap_free_signals = nc;
  }
  if (n_free_signals < cap_free_signals)
    free_signals[n_free_signals++] = s;
  else
    s.handle = 0; /* leak rather than destroy a signal a stale packet might touch */
  pthread_mutex_unlock(&pool_mu);
}

/* Process end, after the waiters stopped: the runtime reports signals
 * still alive at hsa_shut_down as leaked.  Signals of ops that never
 * finished are not in the pool and stay (a late packet may still write). */
void rtg_tool_signals_destroy(void) {
  pthread_mutex_lock(&pool_mu);
  for (size_t i = 0; i < n_free_signals; i++) rtg_real.hsa_signal_destroy(free_signals[i]);
  n_free_signals = 0;
  pthread_mutex_unlock(&pool_mu);
}

/* Fork child: the parent's signals are the parent's (never destroy them
 * here); its ops stay where they are, unused. */
void rtg_op_pool_after_fork(void) {
  n_free_signals = 0;
  pthread_mutex_init(&pool_mu, NULL);
}
