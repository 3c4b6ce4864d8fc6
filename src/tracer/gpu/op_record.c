/* What a GPU op looks like in the trace: the record of a finished op
 * (DISPATCH, BARRIER or COPY), the host's record of a submitted packet
 * (DISPATCH_HOST, BARRIER_HOST: RTG_HSA_HOST_DISPATCH), or, with
 * HCC_PROFILE=2, the legacy "profile:" line the original tracer wrote for
 * `rpt` (writer in src/common/hcc_profile.c).  Each is copied on the thread
 * that submitted or completed the op, and made into text by the writer
 * thread.  Kernels are named by their symbol (kernel_names.c), or with
 * RTG_KERNEL_RENAME by the ROCTx range they were submitted in. */
#include "core/stamp.h"
#include "gpu_op.h"
#include "hcc_profile.h"

#include <string.h>

/* "and", "or" or "value" for a barrier op, and the text of a barrier-value
 * condition (hsa_signal_condition_t). */
static const char *barrier_op_name(const rtg_op *op) {
  return op->kind == RTG_OP_BARRIER_AND ? "and" : op->kind == RTG_OP_BARRIER_OR ? "or" : "value";
}

static const char *barrier_cond_name(uint32_t cond) {
  static const char *const names[] = {"eq", "ne", "lt", "gte"};
  return cond < sizeof names / sizeof names[0] ? names[cond] : "unknown";
}

/* ------------------------------------------------------- HCC_PROFILE=2 */

/* Kernels by their raw symbol (".kd" kept), barriers without a name,
 * copies by direction with bytes, MB and GB/s. */
typedef struct profile_entry {
  const char *type, *name; /* static, or kept until exit (kernel names, ranges) */
  uint64_t start, stop, bytes, seq;
  uint32_t device, queue;
} profile_entry;

static size_t format_profile(char *out, size_t cap, const void *payload, size_t len, uint32_t pid,
                             uint64_t tid) {
  (void)pid, (void)tid;
  profile_entry e;
  if (len != sizeof e) return 0;
  memcpy(&e, payload, sizeof e);
  char extra[160] = "";
  if (!strcmp(e.type, "copy") &&
      !rtg_hcc_profile_copy_extra(extra, sizeof extra, e.bytes, e.start, e.stop))
    extra[0] = 0;
  return rtg_hcc_profile_format(out, cap, e.type, e.name, e.start, e.stop, e.device, e.queue, e.seq,
                                extra);
}

static void record_profile(const rtg_op *op, uint64_t start, uint64_t stop) {
  profile_entry e = {.start = start,
                     .stop = stop,
                     .bytes = op->bytes,
                     .seq = op->seq,
                     .device = rtg_agent_hcc_device(op->agent),
                     .queue = op->agent_queue};
  if (op->kind == RTG_OP_DISPATCH) {
    e.type = "kernel";
    e.name = op->rename ? op->rename : rtg_kernel_name_of(op->kernel_object).symbol;
  } else if (op->kind == RTG_OP_COPY) {
    e.type = "copy";
    e.name = op->copy_kind;
  } else {
    e.type = "barrier";
    e.name = "";
  }
  rtg_emit_entry_keep(format_profile, &e, sizeof e); /* GPU records are never dropped */
}

/* ------------------------------------------------------ as the GPU ran it */

/* What the writer needs to make an op's record: the op as it was, its
 * times and its kernel's names (kept until exit, kernel_names.c). */
typedef struct op_payload {
  rtg_op op;
  uint64_t start, stop;
  rtg_kernel_name name;
  uint32_t waiter; /* the thread that waited for it, 0: none */
} op_payload;

static size_t format_op(char *out, size_t cap, const void *payload, size_t len, uint32_t pid,
                        uint64_t tid) {
  op_payload p;
  if (len != sizeof p) return 0;
  rtg_record rec, *r = &rec;
  memcpy(&p, payload, sizeof p);
  const rtg_op *op = &p.op;
  size_t pre = 0; /* the kernel's own record, first, where not written yet */
  if (op->kind == RTG_OP_DISPATCH) {
    rtg_kernel_name n = p.name;
    if (n.info) pre = rtg_kernel_info_format(out, cap, n.info);
    rtg_record_init(r, RTG_KIND_DISPATCH, pid, tid);
    rtg_rec_DISPATCH *d = &r->u.DISPATCH;
    d->queue = op->queue;
    d->agent = op->agent;
    d->signal = op->app_signal;
    d->name = n.mangled;
    d->start = p.start;
    /* RTG_KERNEL_RENAME: the range names the kernel; its own name (the
     * demangled one when there is one) moves to demangled: */
    if (op->rename) d->name = op->rename, n.demangled = n.demangled ? n.demangled : n.mangled;
    d->stop = p.stop;
    d->id = op->id;
    RTG_SET(r, DISPATCH, workgroup, op->wg);
    RTG_SET(r, DISPATCH, grid, op->grid);
    RTG_SET(r, DISPATCH, lds, op->lds);
    RTG_SET(r, DISPATCH, scratch, op->scratch);
    if (op->corr) RTG_SET(r, DISPATCH, corr, op->corr);
    RTG_SET(r, DISPATCH, tick, rtg_stamp_ns(op->tick));
    if (n.demangled) RTG_SET(r, DISPATCH, demangled, n.demangled);
    if (p.waiter) RTG_SET(r, DISPATCH, waiter, p.waiter);
    if (n.id) RTG_SET(r, DISPATCH, kernel_id, n.id);
    if (op->graph) {
      RTG_SET(r, DISPATCH, graph, op->graph);
      RTG_SET(r, DISPATCH, node, op->node);
    }
  } else if (op->kind == RTG_OP_COPY) {
    rtg_record_init(r, RTG_KIND_COPY, pid, tid);
    rtg_rec_COPY *c = &r->u.COPY;
    c->agent = op->agent;
    c->signal = op->app_signal;
    c->start = p.start;
    c->stop = p.stop;
    c->dep1 = op->deps[0], c->dep2 = op->deps[1], c->dep3 = op->deps[2];
    c->dep4 = op->deps[3], c->dep5 = op->deps[4];
    RTG_SET(r, COPY, bytes, op->bytes);
    RTG_SET(r, COPY, kind, op->copy_kind);
    RTG_SET(r, COPY, src_agent, op->src_agent);
    RTG_SET(r, COPY, dst_agent, op->dst_agent);
    RTG_SET(r, COPY, id, op->id);
    RTG_SET(r, COPY, tick, rtg_stamp_ns(op->tick));
    RTG_SET(r, COPY, api, op->api);
    if (op->corr) RTG_SET(r, COPY, corr, op->corr);
    if (p.waiter) RTG_SET(r, COPY, waiter, p.waiter);
    if (op->graph) {
      RTG_SET(r, COPY, graph, op->graph);
      RTG_SET(r, COPY, node, op->node);
    }
  } else {
    rtg_record_init(r, RTG_KIND_BARRIER, pid, tid);
    rtg_rec_BARRIER *b = &r->u.BARRIER;
    b->queue = op->queue;
    b->agent = op->agent;
    b->signal = op->app_signal;
    b->start = p.start;
    b->stop = p.stop;
    b->dep1 = op->deps[0], b->dep2 = op->deps[1], b->dep3 = op->deps[2];
    b->dep4 = op->deps[3], b->dep5 = op->deps[4];
    b->id = op->id;
    RTG_SET(r, BARRIER, op, barrier_op_name(op));
    if (op->corr) RTG_SET(r, BARRIER, corr, op->corr);
    if (op->kind == RTG_OP_BARRIER_VALUE) {
      RTG_SET(r, BARRIER, value, op->bv_value);
      RTG_SET(r, BARRIER, mask, (uint64_t)op->bv_mask);
      RTG_SET(r, BARRIER, cond, barrier_cond_name(op->bv_cond));
    }
    if (p.waiter) RTG_SET(r, BARRIER, waiter, p.waiter);
  }
  return pre + rtg_entry_record(out + pre, cap - pre, r);
}

void rtg_op_record_done(const rtg_op *op, uint64_t start, uint64_t stop, uint32_t waiter) {
  rtg_count(op->kind == RTG_OP_DISPATCH ? RTG_CNT_DISPATCHES
            : op->kind == RTG_OP_COPY   ? RTG_CNT_COPIES
                                        : RTG_CNT_BARRIERS,
            1);
  if (rtg_cfg.hcc_profile) {
    record_profile(op, start, stop);
    return;
  }
  op_payload p = {.start = start, .stop = stop, .waiter = waiter};
  memcpy(&p.op, op, sizeof p.op);
  if (op->kind == RTG_OP_DISPATCH) p.name = rtg_kernel_name_of(op->kernel_object);
  rtg_emit_entry_keep(format_op, &p, sizeof p); /* GPU records are never dropped */
}

/* ------------------------------------------------- as the host sent it */

/* The host's record of a packet: the op as it was submitted, its kernel's
 * names. */
static size_t format_host(char *out, size_t cap, const void *payload, size_t len, uint32_t pid,
                          uint64_t tid) {
  op_payload p;
  if (len != sizeof p) return 0;
  memcpy(&p, payload, sizeof p);
  const rtg_op *op = &p.op;
  rtg_record r;
  if (op->kind == RTG_OP_DISPATCH) {
    rtg_record_init(&r, RTG_KIND_DISPATCH_HOST, pid, tid);
    rtg_rec_DISPATCH_HOST *d = &r.u.DISPATCH_HOST;
    d->queue = op->queue;
    d->agent = op->agent;
    d->signal = op->app_signal;
    d->name = op->rename ? op->rename : p.name.mangled;
    d->tick = rtg_stamp_ns(op->tick);
    d->id = op->id;
    d->workgroup = op->wg;
    d->grid = op->grid;
    if (op->corr) RTG_SET(&r, DISPATCH_HOST, corr, op->corr);
  } else {
    rtg_record_init(&r, RTG_KIND_BARRIER_HOST, pid, tid);
    rtg_rec_BARRIER_HOST *b = &r.u.BARRIER_HOST;
    b->queue = op->queue;
    b->agent = op->agent;
    b->signal = op->app_signal;
    b->dep1 = op->deps[0], b->dep2 = op->deps[1], b->dep3 = op->deps[2];
    b->dep4 = op->deps[3], b->dep5 = op->deps[4];
    b->tick = rtg_stamp_ns(op->tick);
    b->id = op->id;
    RTG_SET(&r, BARRIER_HOST, op, barrier_op_name(op));
    if (op->kind == RTG_OP_BARRIER_VALUE) {
      RTG_SET(&r, BARRIER_HOST, value, op->bv_value);
      RTG_SET(&r, BARRIER_HOST, mask, (uint64_t)op->bv_mask);
      RTG_SET(&r, BARRIER_HOST, cond, barrier_cond_name(op->bv_cond));
    }
  }
  return rtg_entry_record(out, cap, &r);
}

void rtg_op_record_submitted(const rtg_op *op) {
  if (!rtg_cfg.hsa_host_dispatch || rtg_cfg.hcc_profile || op->kind == RTG_OP_COPY) return;
  op_payload p = {0};
  memcpy(&p.op, op, sizeof p.op);
  if (op->kind == RTG_OP_DISPATCH) p.name = rtg_kernel_name_of(op->kernel_object);
  rtg_emit_entry(format_host, &p, sizeof p);
}
