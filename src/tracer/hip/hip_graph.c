/* HIP graph launches: the graph exec a hipGraphLaunch launches, numbered,
 * made the thread's graph for the call, so that the kernels and copies it
 * submits carry it and their order in the launch (gpu/op_begin.c). */
#include "hip_internal.h"

#include <stdatomic.h>
#include <string.h>

/* Graph execs by their handle, numbered 1, 2, ... in the order of their
 * first launch: a handle HIP reuses after hipGraphExecDestroy keeps its
 * number.  Lock-free (a launch may be on any thread, a fork at any time):
 * a slot is claimed by its handle, then given its number. */
enum { GRAPH_SLOTS = 4096, GRAPH_MAX = GRAPH_SLOTS / 2 };
static struct {
  _Atomic(const void *) exec;
  _Atomic uint32_t id;
} graphs[GRAPH_SLOTS];
static _Atomic uint32_t ngraphs;

/* The exec's number, 0 when the table is full (the launch is not tagged). */
static uint32_t graph_number(const void *exec) {
  uintptr_t h = (uintptr_t)exec;
  h ^= h >> 17;
  for (unsigned i = 0; i < GRAPH_SLOTS; i++) {
    unsigned k = (unsigned)(h + i) & (GRAPH_SLOTS - 1);
    const void *cur = atomic_load_explicit(&graphs[k].exec, memory_order_acquire);
    if (!cur) {
      if (atomic_load_explicit(&ngraphs, memory_order_relaxed) >= GRAPH_MAX) return 0;
      if (atomic_compare_exchange_strong(&graphs[k].exec, &cur, exec)) {
        uint32_t id = atomic_fetch_add(&ngraphs, 1) + 1;
        atomic_store_explicit(&graphs[k].id, id, memory_order_release);
        return id;
      }
      /* another thread took the slot: cur is its handle */
    }
    if (cur == exec) {
      /* its first launch, on another thread, is giving it its number (a
       * bounded wait: that thread may be gone, in a forked child) */
      for (unsigned spin = 0; spin < (1u << 20); spin++) {
        uint32_t id = atomic_load_explicit(&graphs[k].id, memory_order_acquire);
        if (id) return id;
      }
      return 0;
    }
  }
  return 0;
}

void rtg_hip_graph_begin(rtg_hip_call *c, const void *exec_arg) {
  const void *exec;
  memcpy(&exec, exec_arg, sizeof exec);
  uint32_t id = exec ? graph_number(exec) : 0;
  if (!id) return;
  c->graph = 1;
  c->ts->graph = id;
  c->ts->graph_ops = 0;
}
