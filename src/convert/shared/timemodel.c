/* The time model of the reports; see timemodel.h. */
#include "timemodel.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

bool tm_op(const cv_ctx *ctx, const cv_event *ev, rtg_device *gpu, enum tm_kind *kind) {
  switch (ev->type) {
  case CV_KERNEL:
  case CV_BARRIER:
    if (rtg_device_class_of(ev->device) != RTG_DEV_GPU) return false;
    *gpu = ev->device;
    *kind = ev->type == CV_KERNEL ? TM_KERNEL : TM_BARRIER;
    return true;
  case CV_COPY: {
    *kind = TM_COPY;
    if (rtg_device_class_of(ev->device) == RTG_DEV_GPU) return *gpu = ev->device, true;
    if (!ev->has_agents) return false;
    rtg_agents *a = &ctx->procs[ev->proc].agents;
    rtg_device d = rtg_agents_device(a, ev->dst_agent);
    if (rtg_device_class_of(d) != RTG_DEV_GPU) d = rtg_agents_device(a, ev->src_agent);
    if (rtg_device_class_of(d) != RTG_DEV_GPU) return false;
    return *gpu = d, true;
  }
  default:
    return false;
  }
}

void tm_init(tm_index *t, cv_ctx *ctx, size_t entry_size, bool queues, gap_res_fn on_gap,
             void *arg) {
  *t = (tm_index){.ctx = ctx, .queues = queues};
  gap_index_init(&t->x, entry_size < sizeof(tm_res) ? sizeof(tm_res) : entry_size, on_gap, arg);
}

static tm_res *entry(tm_index *t, uint32_t proc, rtg_device gpu, uint64_t queue) {
  bool added;
  tm_res *r = (tm_res *)gap_index_get(&t->x, proc, gpu, queue, &added);
  if (added) {
    gt_init(&r->mixed, NULL, NULL);
    gt_join(&r->mixed, &t->x.pool);
    r->first = UINT64_MAX;
    r->first_kernel = UINT64_MAX;
    r->first_name = UINT32_MAX;
  }
  return r;
}

static void add(tm_res *r, enum tm_kind kind, uint64_t s, uint64_t e, uint32_t name) {
  if (s < r->first) r->first = s;
  if (e > r->last) r->last = e;
  if (kind == TM_KERNEL) {
    gt_add(&r->base.gt, s, e, GT_COMPUTE, name);
    gt_add(&r->mixed, s, e, GT_COMPUTE, name);
    if (s < r->first_kernel) r->first_kernel = s, r->first_name = name;
    r->kernels++;
  } else if (kind == TM_COPY) {
    gt_add(&r->mixed, s, e, GT_COPY, name);
    r->copies++;
  } else {
    r->barriers++;
  }
}

void tm_call(tm_index *t, uint32_t proc, uint64_t start) {
  if (proc >= t->ncall) {
    uint32_t n = proc + 1;
    t->call_start = rtg_xrealloc(t->call_start, n * sizeof *t->call_start, "the time model");
    memset(t->call_start + t->ncall, 0, (n - t->ncall) * sizeof *t->call_start);
    t->ncall = n;
  }
  uint64_t *c = &t->call_start[proc];
  if (!*c || start < *c) *c = start;
}

bool tm_clip(const cv_ctx *ctx, const cv_event *ev, tm_clipped *c) {
  if (!tm_op(ctx, ev, &c->gpu, &c->kind)) return false;
  uint64_t s = ev->start, e = ev->end < ev->start ? ev->start : ev->end;
  if (s < ctx->window_start) s = ctx->window_start;
  if (ctx->window_end && e > ctx->window_end) e = ctx->window_end;
  if (e < s) e = s;
  c->start = s, c->end = e;
  return true;
}

tm_res *tm_add(tm_index *t, uint32_t proc, uint64_t queue, const tm_clipped *c, uint32_t name) {
  tm_res *r = entry(t, proc, c->gpu, GAP_DEVICE);
  add(r, c->kind, c->start, c->end, name);
  if (t->queues && c->kind != TM_COPY)
    add(entry(t, proc, c->gpu, queue), c->kind, c->start, c->end, name);
  return r;
}

tm_res *tm_event(tm_index *t, const cv_event *ev) {
  cv_ctx *ctx = t->ctx;
  if (ev->type == CV_HIP_API || ev->type == CV_HSA_API) {
    tm_call(t, ev->proc, ev->start);
    return NULL;
  }
  tm_clipped c;
  if (!tm_clip(ctx, ev, &c)) return NULL;
  uint32_t name = c.kind == TM_KERNEL ? cv_intern(ctx, ev->name) : UINT32_MAX;
  return tm_add(t, ev->proc, ev->queue, &c, name);
}

uint64_t tm_proc_start(const tm_index *t, uint32_t proc) {
  uint64_t boot = t->ctx->procs[proc].boot_ns;
  if (boot) return boot;
  return proc < t->ncall ? t->call_start[proc] : 0;
}

static void gap(tm_index *t, tm_res *r, uint64_t s, uint64_t e, uint32_t before, uint32_t after) {
  if (e > s && t->x.on_gap) t->x.on_gap(t->x.arg, &r->base, s, e, before, after);
}

void tm_finish(tm_index *t) {
  gap_index_finish(&t->x);
  for (uint32_t i = 0; i < t->x.n; i++) {
    tm_res *r = (tm_res *)t->x.r[i];
    gt_finish(&r->mixed);
    tm_totals *to = &r->t;
    r->ok = r->first <= r->last &&
            tm_span(tm_proc_start(t, r->base.proc), r->first, r->last, t->ctx->window_start,
                    t->ctx->window_end, &to->span_start, &to->span_end);
    if (!r->ok) continue;
    to->span = to->span_end - to->span_start;
    to->busy = r->base.gt.compute.total;
    to->copy_busy = r->mixed.copy.total;
    to->idle = to->span - to->busy;
    if (!r->kernels) {
      gap(t, r, to->span_start, to->span_end, UINT32_MAX, UINT32_MAX);
      continue;
    }
    gap(t, r, to->span_start, r->first_kernel, UINT32_MAX, r->first_name);
    gap(t, r, r->base.gt.all.e, to->span_end, r->base.gt.last_name, UINT32_MAX);
  }
}

void tm_free(tm_index *t) {
  for (uint32_t i = 0; i < t->x.n; i++) gt_free(&((tm_res *)t->x.r[i])->mixed);
  gap_index_free(&t->x);
  free(t->call_start);
  *t = (tm_index){0};
}
