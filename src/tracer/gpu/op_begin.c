/* Beginning a GPU op where its packet or copy is submitted, the same for
 * every kind (gpu_op.h), and handing it on to its waiter.  Ops are
 * numbered here, in the order they begin. */
#include "core/stamp.h"
#include "gpu_op.h"

static _Atomic uint64_t next_id;

rtg_op *rtg_op_begin(rtg_op_kind kind, rtg_op_waiter *w, hsa_signal_t app) {
  rtg_op *op = rtg_op_alloc();
  if (!op) {
    rtg_count(RTG_CNT_LOST_GPU, 1);
    return NULL;
  }
  op->kind = kind;
  op->waiter = w;
  op->id = atomic_fetch_add(&next_id, 1);
  rtg_thread_state *ts = &rtg_tls;
  op->corr = ts->corr;
  if (!op->corr) {
    if (kind == RTG_OP_DISPATCH || kind == RTG_OP_COPY) {
      void (*missing)(void) = __atomic_load_n(&rtg_corr_missing, __ATOMIC_ACQUIRE);
      if (missing && !ts->hip_tramp) missing(); /* (in a HIP call not recorded: known) */
    }
    op->corr = ts->inner; /* outside HIP: the HSA call that submitted it, if traced */
  }
  ts->op_inner = ts->inner;
  op->graph = op->node = 0;
  if (ts->graph && (kind == RTG_OP_DISPATCH || kind == RTG_OP_COPY)) {
    op->graph = ts->graph;
    op->node = ++ts->graph_ops;
  }
  /* a stamp like the API calls' times (core/stamp.h), placed with them by
   * the writer: a CLOCK_BOOTTIME read here could land outside the times of
   * the call that submits the op, made of the other clock */
  op->tick = rtg_stamp();
  /* asked for here, kept by the binding only for an owner (sigtrack.c);
   * copies are always raised (their end time is the engine's to write) */
  op->quiet = kind != RTG_OP_COPY && app.handle && rtg_async_watched(app.handle);
  if (!rtg_op_bind_signal(op, app)) {
    rtg_count(RTG_CNT_LOST_GPU, 1);
    rtg_op_free(op);
    return NULL;
  }
  return op;
}

void rtg_op_submit(rtg_op *op) {
  if (rtg_cfg.hsa_host_dispatch) rtg_op_record_submitted(op);
  rtg_waiter_submit(op);
}

void rtg_op_cancel(rtg_op *op) {
  rtg_op_unbind_signal(op);
  rtg_op_free(op);
}
