/* The rules of --analyze: see rules.h. */
#include "rules.h"

#include <string.h>

#include "ivset.h"

const an_rule_info an_rules[AN_NRULES] = {
    [AN_RULE_SYNC_AFTER_LAUNCH] = {"sync_after_launch",
                                   "a synchronisation follows most kernel launches",
                                   "launch more work before waiting; wait on an event of the "
                                   "result that is needed"},
    [AN_RULE_SYNC_COPY] = {"sync_copy", "synchronous copies or fills between kernel launches",
                           "use hipMemcpyAsync/hipMemsetAsync on a stream, from pinned memory"},
    [AN_RULE_ALLOC_IN_LOOP] = {"alloc_in_loop", "memory allocated or freed between kernel launches",
                               "allocate once before the loop, or use hipMallocAsync and a "
                               "memory pool"},
    [AN_RULE_PAGEABLE_COPY] = {"pageable_copy", "async copies from or to pageable host memory",
                               "allocate the host buffers with hipHostMalloc, or pin them "
                               "with hipHostRegister"},
    [AN_RULE_LAUNCH_BOUND] = {"launch_bound", "kernels shorter than the calls that launch them",
                              "fuse small kernels, or capture them in a HIP graph"},
    [AN_RULE_QUEUE_DELAY] = {"queue_delay", "kernels that waited long in their queue",
                             "look at what ran before them on the GPU and at the host's "
                             "wait before the launch"},
    [AN_RULE_LOW_UTILIZATION] = {"low_utilization", "windows where the GPU is under 20 % busy",
                                 "see the idle causes of the window's time"},
    [AN_RULE_STARTUP] = {"startup", "a long time from the process's start to its first GPU op",
                         "initialise the GPU earlier, or overlap host setup with GPU work"},
};

/* Keeps the AN_MAX_INSTANCES longest instances, the longest first. */
void an_rule_instance(an_rule *r, an_instance in) {
  r->count++;
  r->cost += in.dur;
  int n = r->nworst;
  if (n == AN_MAX_INSTANCES && r->worst[n - 1].dur >= in.dur) return;
  if (n < AN_MAX_INSTANCES) r->nworst = ++n;
  int i = n - 1;
  for (; i > 0 && r->worst[i - 1].dur < in.dur; i--) r->worst[i] = r->worst[i - 1];
  r->worst[i] = in;
}

static an_instance call_instance(const an_call *c) {
  return (an_instance){.start = c->start, .dur = c->end - c->start, .tid = c->tid, .name = c->name};
}

void an_rules_process(const an_call *calls, size_t n, uint64_t first, uint64_t last,
                      an_rule out[AN_NRULES]) {
  an_rule *sync = &out[AN_RULE_SYNC_AFTER_LAUNCH], *copy = &out[AN_RULE_SYNC_COPY],
          *alloc = &out[AN_RULE_ALLOC_IN_LOOP];
  memset(sync, 0, sizeof *sync), memset(copy, 0, sizeof *copy), memset(alloc, 0, sizeof *alloc);
  uint64_t tid = 0, top_end = 0;
  bool pending = false, any = false;
  for (size_t i = 0; i < n; i++) {
    const an_call *c = &calls[i];
    if (any && c->tid == tid && c->start < top_end) continue; /* nested */
    if (!any || c->tid != tid) pending = false;
    any = true, tid = c->tid, top_end = c->end;
    if (c->flags & AN_CALL_LAUNCHED) {
      sync->of++;
      pending = true;
    } else if (c->flags & AN_CALL_SYNC) {
      if (pending) an_rule_instance(sync, call_instance(c));
      pending = false;
    }
    if (c->start < first || c->start >= last) continue;
    if (c->flags & AN_CALL_COPY) an_rule_instance(copy, call_instance(c));
    if (c->flags & AN_CALL_ALLOC) an_rule_instance(alloc, call_instance(c));
  }
  sync->evaluated = copy->evaluated = alloc->evaluated = true;
  /* most launches, and more than a handful */
  sync->fired = sync->count >= 3 && 2 * sync->count > sync->of;
  copy->fired = copy->count > 0;
  alloc->fired = alloc->count > 0;
}

static void launch_bound(const an_op *ops, size_t n, an_rule *r) {
  for (size_t i = 0; i < n; i++) {
    const an_op *op = &ops[i];
    if (op->kind != AN_OP_KERNEL || op->call_flags & AN_CALL_COPY) continue;
    r->of++;
    uint64_t api = op->api_e > op->api_s ? op->api_e - op->api_s : 0, k = op->end - op->start;
    if (k < api)
      an_rule_instance(
          r, (an_instance){
                 .start = op->start, .dur = api - k, .tid = op->tid, .value = k, .name = op->name});
  }
  /* at least a quarter of the kernels, and more than a handful */
  r->fired = r->count >= 3 && 4 * r->count >= r->of;
}

static void queue_delay(const an_op *ops, size_t n, const an_result *res, const an_launch *l,
                        an_rule *r) {
  r->of = l->kernels;
  for (size_t i = 0; i < n; i++) {
    const an_op *op = &ops[i];
    if (op->kind != AN_OP_KERNEL || !op->enq || op->start < op->enq) continue;
    const an_launch_row *q = an_launch_queue(l, op->queue);
    uint64_t limit = q ? q->queue.median * AN_OUTLIER_FACTOR : 0;
    if (limit < AN_OUTLIER_MIN_NS) limit = AN_OUTLIER_MIN_NS;
    if (op->start - op->enq > limit)
      an_rule_instance(r, (an_instance){.start = op->enq,
                                        .dur = op->start - op->enq,
                                        .tid = op->tid,
                                        .value = op->queue,
                                        .name = op->name});
  }
  /* at least 1 % of the span after startup */
  r->fired = r->count && 100 * r->cost >= res->span - res->cause[AN_STARTUP];
}

#define CHUNKS 50
#define LOW_PCT 20

static void low_utilization(const an_op *ops, size_t n, const an_result *res, an_rule *r) {
  uint64_t s = res->span_start + res->cause[AN_STARTUP], e = res->span_end;
  if (e - s < CHUNKS) return;
  an_ivset kern = {0};
  an_iv_reserve(&kern, n);
  for (size_t i = 0; i < n; i++)
    if (ops[i].kind == AN_OP_KERNEL) an_iv_add(&kern, ops[i].start, ops[i].end);
  an_iv_normalize(&kern);
  an_iv_clip(&kern, s, e);
  uint64_t busy[CHUNKS] = {0}, len = (e - s) / CHUNKS;
  for (size_t i = 0; i < kern.n; i++)
    for (uint64_t c = (kern.v[i].s - s) / len; c < CHUNKS; c++) {
      uint64_t cs = s + c * len, ce = c + 1 == CHUNKS ? e : cs + len;
      if (cs >= kern.v[i].e) break;
      uint64_t a = kern.v[i].s > cs ? kern.v[i].s : cs, b = kern.v[i].e < ce ? kern.v[i].e : ce;
      if (b > a) busy[c] += b - a;
    }
  an_iv_free(&kern);
  uint64_t low = 0;
  for (int c = 0; c < CHUNKS;) {
    uint64_t cs = s + (uint64_t)c * len;
    if (100 * busy[c] >= LOW_PCT * len) {
      c++;
      continue;
    }
    an_instance w = {.start = cs, .name = AN_NO_NAME};
    for (; c < CHUNKS && 100 * busy[c] < LOW_PCT * len; c++) w.value += busy[c], low++;
    w.dur = (c == CHUNKS ? e : s + (uint64_t)c * len) - cs;
    an_rule_instance(r, w);
  }
  r->cost = 0; /* the idle time in the windows, not their length */
  for (int c = 0; c < CHUNKS; c++) {
    uint64_t cl = c + 1 == CHUNKS ? e - s - (CHUNKS - 1) * len : len;
    if (100 * busy[c] < LOW_PCT * len) r->cost += cl - busy[c];
  }
  /* windows over a tenth of the span */
  r->fired = 10 * low >= CHUNKS;
}

void an_rules_gpu(const an_op *ops, size_t n, const an_result *res, const an_launch *l,
                  an_rule out[AN_NRULES]) {
  for (int i = AN_FIRST_GPU_RULE; i < AN_NRULES; i++) {
    memset(&out[i], 0, sizeof out[i]);
    out[i].evaluated = true;
  }
  launch_bound(ops, n, &out[AN_RULE_LAUNCH_BOUND]);
  queue_delay(ops, n, res, l, &out[AN_RULE_QUEUE_DELAY]);
  low_utilization(ops, n, res, &out[AN_RULE_LOW_UTILIZATION]);
  an_rule *st = &out[AN_RULE_STARTUP];
  uint64_t startup = res->cause[AN_STARTUP];
  if (startup) {
    an_rule_instance(st,
                     (an_instance){.start = res->span_start, .dur = startup, .name = AN_NO_NAME});
    st->fired = 5 * startup >= res->span;
  }
}
