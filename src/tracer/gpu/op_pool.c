/* GPU ops and tool signals, each from a pool.  Ops are allocated a block
 * at a time and recycled, never freed: a thread that looked an op up
 * before it finished still finds memory, and its claim fails on the
 * changed generation (completion.c).  Tool signals stand in for packets
 * without a signal and for shared ones (sigtrack.c); one is reused only
 * after its op completed, so a stale packet never decrements another
 * op's signal. */
#include "core/spin.h"
#include "gpu_op.h"

#include <hsa/amd_hsa_signal.h>

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static rtg_spin pool_mu; /* (zero: free) */
static rtg_op *free_ops;
typedef struct signal_pool {
  hsa_signal_t *free;
  size_t n, cap;
} signal_pool;
/* [0] without an event, [1] with one */
static signal_pool pools[2];

rtg_op *rtg_op_alloc(void) {
  rtg_spin_lock(&pool_mu);
  rtg_op *op = free_ops;
  if (op) free_ops = op->next;
  rtg_spin_unlock(&pool_mu);
  if (!op) {
    /* a block at a time: rarely allocates once warm */
    enum { BLOCK = 256 };
    rtg_op *blk = calloc(BLOCK, sizeof *blk);
    if (!blk) return NULL;
    rtg_spin_lock(&pool_mu);
    for (int i = 1; i < BLOCK; i++) {
      blk[i].next = free_ops;
      free_ops = &blk[i];
    }
    rtg_spin_unlock(&pool_mu);
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
  rtg_spin_lock(&pool_mu);
  op->next = free_ops;
  free_ops = op;
  rtg_spin_unlock(&pool_mu);
}

/* Without an event: the waiter and the forwarding read a tool signal's
 * memory and nobody blocks on it, so the GPU need not raise an interrupt
 * at every packet that carries one (a HIP 5 kernel's, most of them), and
 * no thread blocked on any other signal is woken by it.  A forward's has
 * one: an application thread waiting for its shared signal blocks on the
 * forwards' tool signals and completes each as it lands (signal_hooks.c). */
static hsa_status_t tool_signal_create(hsa_signal_t *s, bool event) {
  /* (out of events: one without, which the waiters complete) */
  if (event && rtg_real.hsa_signal_create(1, 0, NULL, s) == HSA_STATUS_SUCCESS)
    return HSA_STATUS_SUCCESS;
  if (rtg_real.hsa_amd_signal_create &&
      rtg_real.hsa_amd_signal_create(1, 0, NULL, HSA_AMD_SIGNAL_AMD_GPU_ONLY, s) ==
          HSA_STATUS_SUCCESS)
    return HSA_STATUS_SUCCESS;
  return rtg_real.hsa_signal_create(1, 0, NULL, s);
}

hsa_signal_t rtg_tool_signal_get(bool event) {
  signal_pool *p = &pools[event];
  hsa_signal_t s = {0};
  rtg_spin_lock(&pool_mu);
  if (p->n) s = p->free[--p->n];
  rtg_spin_unlock(&pool_mu);
  if (!s.handle && tool_signal_create(&s, event) != HSA_STATUS_SUCCESS) s.handle = 0;
  return s;
}

void rtg_tool_signal_put(hsa_signal_t s, bool event) {
  signal_pool *p = &pools[event];
  /* on its memory: nobody waits on a tool signal once its op landed */
  __atomic_store_n(&((amd_signal_t *)(uintptr_t)s.handle)->value, 1, __ATOMIC_RELEASE);
  rtg_spin_lock(&pool_mu);
  while (p->n == p->cap) { /* grown outside the lock (rarely: the pool only grows) */
    size_t cap = p->cap, nc = cap ? cap * 2 : 64;
    rtg_spin_unlock(&pool_mu);
    hsa_signal_t *n = malloc(nc * sizeof *n);
    rtg_spin_lock(&pool_mu);
    if (!n) break;
    if (p->cap == cap) { /* (else another thread grew it meanwhile) */
      if (p->n) memcpy(n, p->free, p->n * sizeof *n);
      hsa_signal_t *old = p->free;
      p->free = n, p->cap = nc, n = old;
    }
    rtg_spin_unlock(&pool_mu);
    free(n);
    rtg_spin_lock(&pool_mu);
  }
  if (p->n < p->cap)
    p->free[p->n++] = s;
  else
    s.handle = 0; /* leak rather than destroy a signal a stale packet might touch */
  rtg_spin_unlock(&pool_mu);
}

/* Process end, after the waiters stopped: the runtime reports signals
 * still alive at hsa_shut_down as leaked.  Signals of ops that never
 * finished are not in the pool and stay (a late packet may still write). */
void rtg_tool_signals_destroy(void) {
  rtg_spin_lock(&pool_mu);
  for (int k = 0; k < 2; k++) {
    for (size_t i = 0; i < pools[k].n; i++) rtg_real.hsa_signal_destroy(pools[k].free[i]);
    pools[k].n = 0;
  }
  rtg_spin_unlock(&pool_mu);
}

/* Fork child: the parent's signals are the parent's (never destroy them
 * here); its ops stay where they are, unused. */
void rtg_op_pool_after_fork(void) {
  pools[0].n = pools[1].n = 0;
  rtg_spin_init(&pool_mu);
}
