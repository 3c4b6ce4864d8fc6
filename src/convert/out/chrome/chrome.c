/* Chrome trace / Perfetto JSON output (-o).
 *
 * {"displayTimeUnit":"ns","otherData":{...},"traceEvents":[ one event a line ]}
 * ts/dur are microseconds with up to three decimals, so nanoseconds are
 * exact; ts is CLOCK_BOOTTIME (or relative to the first event with --zero).
 * Events are written as they are read; names of processes and tracks
 * (metadata events) go at the end, when every track is known. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chrome.h"
#include "convert.h"
#include "shared/corr.h"
#include "analyze/gapslices.h"
#include "shared/memuse.h"
#include "shared/names.h"
#include "outfile.h"
#include "shared/split.h"
#include "chrome_trace.h"
#include "shared/tracks.h"
#include "xalloc.h"

typedef struct chrome {
  cv_ctx *ctx;
  FILE *f;
  bool own_f;
  rtg_chrome out;
  tracks ts;
  corr_table calls;    /* HIP call -> op, by correlation id */
  corr_table dispatch; /* host dispatch -> op, by queue and packet id */
  uint64_t next_flow;
  cv_chrome_pre *pre; /* what the preparation pass needs (chrome_pre.c) */
  an_slices gaps;     /* -g: the idle pieces by cause */
  rtg_u64map kargs;   /* cv_kinfo address -> strtab id + 1 of its args text */
} chrome;

/* The args of a kernel's resources (its KERNEL record), made once per
 * kernel: "kernel_id":N,"arch_vgpr":..,"accum_vgpr":..,"sgpr":..,
 * "static_lds":..,"static_scratch":..,"kernarg":..,"wavefront":.. (the
 * dispatch's own lds and scratch are the packet's). */
static const char *kinfo_args(chrome *c, const cv_kinfo *k) {
  uint64_t *v = rtg_u64map_put(&c->kargs, (uint64_t)(uintptr_t)k, 0, NULL);
  if (!v) rtg_out_of_memory("the JSON output's kernel arguments");
  if (!*v) {
    char b[512];
    int n = snprintf(b, sizeof b, "\"kernel_id\":%llu", (unsigned long long)k->id);
    if (k->has_regs)
      n += snprintf(b + n, sizeof b - (size_t)n,
                    ",\"arch_vgpr\":%u,\"accum_vgpr\":%u,\"sgpr\":%u,\"wavefront\":%u",
                    k->arch_vgpr, k->accum_vgpr, k->sgpr, k->wavefront);
    if (k->has_lds)
      n +=
          snprintf(b + n, sizeof b - (size_t)n, ",\"static_lds\":%llu", (unsigned long long)k->lds);
    if (k->has_scratch)
      n += snprintf(b + n, sizeof b - (size_t)n, ",\"static_scratch\":%llu",
                    (unsigned long long)k->scratch);
    if (k->has_kernarg)
      snprintf(b + n, sizeof b - (size_t)n, ",\"kernarg\":%llu", (unsigned long long)k->kernarg);
    *v = (uint64_t)cv_intern(c->ctx, b) + 1;
  }
  return cv_str(c->ctx, (uint32_t)(*v - 1));
}

static void op_without_call(void *arg, corr_val op);
static void *chrome_open(cv_ctx *ctx) {
  chrome *c = rtg_xcalloc(1, sizeof *c, "the JSON output");
  c->ctx = ctx;
  if (!strcmp(ctx->opt.json_out, "-")) {
    c->f = stdout;
  } else if (ctx->opt.split_size) {
    c->f = cv_split_whole(ctx->opt.json_out);
    if (!c->f) {
      rtg_error("cannot create a temporary file beside output: path=%s: %m", ctx->opt.json_out);
      free(c);
      return NULL;
    }
    c->own_f = true;
  } else {
    c->f = rtg_out_open(ctx->opt.json_out);
    if (!c->f) {
      rtg_error("cannot create output: path=%s: %m", ctx->opt.json_out);
      free(c);
      return NULL;
    }
    c->own_f = true;
  }
  size_t slots = corr_slots_setting();
  const char *head =
      ctx->opt.zero_time
          ? "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"rtg-convert " RTG_VERSION
            "\",\"clock\":\"CLOCK_BOOTTIME, relative\"},\n\"traceEvents\":[\n"
          : "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"rtg-convert " RTG_VERSION
            "\",\"clock\":\"CLOCK_BOOTTIME\"},\n\"traceEvents\":[\n";
  if (!rtg_chrome_open(&c->out, c->f, head, true) || !corr_init(&c->calls, slots) ||
      !corr_init(&c->dispatch, slots))
    rtg_out_of_memory("the JSON output's buffers and call/op tables");
  corr_set_unmatched(&c->calls, op_without_call, c);
  tracks_init(&c->ts, ctx);
  if (ctx->opt.gap_events) an_slices_init(&c->gaps, ctx);
  return c;
}

/* The JSON of API calls and kernels, most lines of a big trace, is made
 * on the trace reader's threads (chrome_pre.c); the sink puts the track
 * into it (chrome_event). */
static void chrome_prepare(void *st, cv_prepare *p) {
  chrome *c = st;
  c->pre = aligned_alloc(64, sizeof *c->pre);
  if (!c->pre) return; /* (no preparation: the sink makes every event) */
  *c->pre = (cv_chrome_pre){.time_base = c->ctx->time_base,
                            .kernel_names = c->ctx->opt.kernel_names,
                            .clock = &c->ctx->prep_clock};
  c->ctx->prep_clock.applied = true;
  *p = (cv_prepare){cv_chrome_prepare, c->pre, 2, true};
}

/* ------------------------------------------------------------ event text */

#define ev_begin(c, ph) rtg_chrome_event(&(c)->out, ph)
#define put_key(c, key) RTG_CHROME_KEY(&(c)->out, key)
#define put_str(c, key, v) RTG_CHROME_STR(&(c)->out, key, v)
#define put_u64(c, key, v) RTG_CHROME_U64(&(c)->out, key, v)
#define put_ts(c, key, ns) (put_key(c, key), put_time(c, ns))

static inline void put_time(chrome *c, uint64_t ns) {
  uint64_t base = c->ctx->time_base;
  rtg_jsonw_ns_as_us(&c->out.w, ns > base ? ns - base : 0);
}

static inline void put_where(chrome *c, const track *t) {
  rtg_jsonw_raw(&c->out.w, t->where, t->where_len);
}

/* {"ph":"X","name":..,"cat":..,"ts":..,"dur":..,"pid":..,"tid":.. (args follow) */
static void slice(chrome *c, const track *t, const char *name, const char *cat, uint64_t start,
                  uint64_t end) {
  ev_begin(c, "X");
  put_str(c, "name", name);
  put_str(c, "cat", cat);
  put_ts(c, "ts", start);
  put_key(c, "dur");
  rtg_jsonw_ns_as_us(&c->out.w, end - start);
  put_where(c, t);
}

/* args: a comma is written before every member but the first */
typedef struct args {
  chrome *c;
  bool open;
} args;

static inline void arg_open(args *a) {
  if (!a->open)
    rtg_jsonw_raw(&a->c->out.w, ",\"args\":{", 9);
  else
    rtg_jsonw_ch(&a->c->out.w, ',');
  a->open = true;
}
#define AKEY(key) "\"" key "\":"
#define arg_key(a, key)                                                                            \
  (arg_open(a), rtg_jsonw_raw(&(a)->c->out.w, AKEY(key), sizeof AKEY(key) - 1))
#define arg_str(a, key, v) arg_str_(a, AKEY(key), sizeof AKEY(key) - 1, v)
#define arg_u64(a, key, v) (arg_key(a, key), rtg_jsonw_u64(&(a)->c->out.w, v))
#define arg_dim3(a, key, d) (arg_key(a, key), put_dim3(a, d))
static inline void arg_str_(args *a, const char *qkey, size_t n, const char *v) {
  if (!v) return;
  arg_open(a);
  rtg_jsonw_raw(&a->c->out.w, qkey, n);
  rtg_jsonw_str(&a->c->out.w, v);
}
static void put_dim3(args *a, rtg_dim3 d) {
  rtg_jsonw_ch(&a->c->out.w, '[');
  rtg_jsonw_u64(&a->c->out.w, d.x);
  rtg_jsonw_ch(&a->c->out.w, ',');
  rtg_jsonw_u64(&a->c->out.w, d.y);
  rtg_jsonw_ch(&a->c->out.w, ',');
  rtg_jsonw_u64(&a->c->out.w, d.z);
  rtg_jsonw_ch(&a->c->out.w, ']');
}

typedef struct frames {
  rtg_jsonw *w;
  bool first;
} frames;
static void put_frame(void *arg, const char *frame) {
  frames *f = arg;
  if (!f->first) rtg_jsonw_ch(f->w, ',');
  f->first = false;
  rtg_jsonw_str(f->w, frame);
}
static void arg_stack(args *a, uint32_t proc, uint64_t stack) {
  if (!stack) return;
  arg_key(a, "stack");
  rtg_jsonw_ch(&a->c->out.w, '[');
  frames f = {&a->c->out.w, true};
  if (!cv_stack_frames(a->c->ctx, proc, stack, put_frame, &f)) {
    char id[64];
    snprintf(id, sizeof id, "stack %llu (not recorded)", (unsigned long long)stack);
    put_frame(&f, id);
  }
  rtg_jsonw_ch(&a->c->out.w, ']');
}
static void args_end(args *a) {
  if (a->open) rtg_jsonw_ch(&a->c->out.w, '}');
  rtg_jsonw_ch(&a->c->out.w, '}');
}

/* ------------------------------------------------------------ flows */

/* What an arrow's two ends say of it: its name and category, the same
 * word, written as it is (nothing in it to escape). */
typedef struct flow_kind {
  const char *text;
  size_t len;
} flow_kind;
#define FLOW_KIND(word)                                                                            \
  {                                                                                                \
    ",\"name\":\"" word "\",\"cat\":\"" word "\"",                                                 \
        sizeof(",\"name\":\"" word "\",\"cat\":\"" word "\"") - 1                                  \
  }
static const flow_kind flow_launches = FLOW_KIND("launch"), flow_dispatches = FLOW_KIND("dispatch");

/* One end of an arrow: "s" at the host slice (at its start, which the
 * slice encloses), "f" at the GPU op, bound to the slice it points at
 * ("bp":"e"). */
static void flow_end(chrome *c, const char *ph, const flow_kind *kind, uint64_t id, corr_val at) {
  ev_begin(c, ph);
  if (ph[0] == 'f') rtg_jsonw_lit(&c->out.w, ",\"bp\":\"e\"");
  rtg_jsonw_raw(&c->out.w, kind->text, kind->len);
  put_u64(c, "id", id);
  put_ts(c, "ts", at.c);
  put_u64(c, "pid", at.a);
  put_u64(c, "tid", at.b);
  rtg_jsonw_ch(&c->out.w, '}');
}

/* An arrow from a host call to the GPU op it caused. */
static void flow(chrome *c, const flow_kind *kind, corr_val host, corr_val op) {
  uint64_t id = ++c->next_flow;
  flow_end(c, "s", kind, id, host);
  flow_end(c, "f", kind, id, op);
}

static void flow_launch(void *arg, corr_val host, corr_val op) {
  flow(arg, &flow_launches, host, op);
}
static void flow_dispatch(void *arg, corr_val host, corr_val op) {
  flow(arg, &flow_dispatches, host, op);
}

static uint64_t dispatch_key(const cv_event *ev) {
  return rtg_mix64(((uint64_t)ev->proc << 40 | ev->agent) ^ rtg_mix64(ev->queue) ^
                   rtg_mix64(ev->id + 0x9e37)) |
         1;
}

/* ------------------------------------------------------------ gaps (-g) */

/* The idle pieces of each GPU and queue, named by cause, on its gaps track. */
static void gap_slices(chrome *c) {
  an_slices_finish(&c->gaps);
  for (size_t i = 0; i < c->gaps.n; i++) {
    const an_piece *g = &c->gaps.v[i];
    track *t = tracks_get(&c->ts, g->proc, TK_GAPS, g->device,
                          g->queue == AN_NO_QUEUE ? 0 : (uint64_t)g->queue + 1, 0);
    slice(c, t, an_cause_names[g->cause], "gap", g->start, g->end);
    args a = {c, false};
    char detail[600];
    an_detail_text(c->gaps.st, g->cause, g->key, detail, sizeof detail);
    if (detail[0]) arg_str(&a, "detail", detail);
    if (g->tid) arg_u64(&a, "tid", g->tid);
    args_end(&a);
  }
}

/* ------------------------------------------------------------ events */

static void chrome_event(void *st, const cv_event *ev) {
  chrome *c = st;
  cv_ctx *ctx = c->ctx;
  args a = {c, false};
  track *t;
  if (ctx->opt.gap_events) an_slices_add(&c->gaps, ev);
  switch (ev->type) {
  case CV_HIP_API:
  case CV_HSA_API: {
    bool hip = ev->type == CV_HIP_API;
    t = tracks_get(&c->ts, ev->proc, hip ? TK_HIP : TK_HSA, ev->tid, 0, 0);
    if (ev->prep) { /* made on the reader's threads (chrome_pre.c): the track goes in */
      rtg_chrome_event_text(&c->out, ev->prep, ev->prep_mark);
      put_where(c, t);
      rtg_jsonw_raw(&c->out.w, ev->prep + ev->prep_mark, ev->prep_len - ev->prep_mark);
    } else {
      bool rename = ctx->opt.kernel_names && ev->kernel && *ev->kernel;
      slice(c, t, rename ? ev->kernel : ev->name, hip ? "hip" : "hsa", ev->start, ev->end);
      if (rename)
        arg_str(&a, "api", ev->name);
      else
        arg_str(&a, "kernel", ev->kernel);
      arg_str(&a, "args", ev->args);
      arg_str(&a, "ret", ev->ret);
      if (ev->has_corr) arg_u64(&a, "corr", ev->corr);
      if (ev->ancestor) arg_u64(&a, "ancestor", ev->ancestor);
      if (ev->polls) { /* repeated calls: the slice spans them all */
        arg_u64(&a, "polls", ev->polls);
        arg_u64(&a, "busy", ev->busy);
      }
      arg_stack(&a, ev->proc, ev->stack);
      args_end(&a);
    }
    /* arrows start at HIP calls: the ops submitted inside one carry its
     * correlation id, whatever HSA calls it made */
    if (ctx->opt.flows && ev->has_corr && hip) {
      corr_val host = {t->cpid, t->ctid, ev->start, 0};
      corr_call(&c->calls, corr_key(ev->proc, ev->corr), host, flow_launch, c);
    }
    return;
  }
  case CV_HOST_DISPATCH:
  case CV_HOST_BARRIER: {
    t = tracks_get(&c->ts, ev->proc, TK_DISPATCH, ev->tid, 0, 0);
    slice(c, t, ev->name, "dispatch", ev->start, ev->end);
    arg_u64(&a, "queue", ev->queue);
    arg_u64(&a, "agent", ev->agent);
    arg_u64(&a, "id", ev->id);
    if (ev->has_dims && ev->type == CV_HOST_DISPATCH) {
      arg_dim3(&a, "workgroup", ev->wg);
      arg_dim3(&a, "grid", ev->grid);
    }
    args_end(&a);
    if (ctx->opt.flows) {
      corr_val host = {t->cpid, t->ctid, ev->start, 0};
      corr_call(&c->dispatch, dispatch_key(ev), host, flow_dispatch, c);
    }
    return;
  }
  case CV_KERNEL:
  case CV_BARRIER: {
    bool k = ev->type == CV_KERNEL;
    t = tracks_lane(&c->ts, ev->proc, TK_QUEUE, ev->device, ev->queue, ev->start, ev->end);
    if (ev->prep) { /* a kernel's text made on the reader's threads (chrome_pre.c) */
      rtg_chrome_event_text(&c->out, ev->prep, ev->prep_mark);
      put_where(c, t);
      if (ev->kinfo) { /* its text ends in "}}": the kernel's args go before */
        rtg_jsonw_raw(&c->out.w, ev->prep + ev->prep_mark, ev->prep_len - ev->prep_mark - 2);
        const char *ka = kinfo_args(c, ev->kinfo);
        rtg_jsonw_ch(&c->out.w, ',');
        rtg_jsonw_raw(&c->out.w, ka, strlen(ka));
        rtg_jsonw_raw(&c->out.w, "}}", 2);
      } else {
        rtg_jsonw_raw(&c->out.w, ev->prep + ev->prep_mark, ev->prep_len - ev->prep_mark);
      }
    } else {
      slice(c, t, ev->name, k ? "kernel" : "barrier", ev->start, ev->end);
      arg_u64(&a, "queue", ev->queue);
      arg_u64(&a, "agent", ev->agent);
      arg_u64(&a, "id", ev->id);
      if (ev->has_corr) arg_u64(&a, "corr", ev->corr);
      if (ev->has_dims) {
        arg_dim3(&a, "workgroup", ev->wg);
        arg_dim3(&a, "grid", ev->grid);
      }
      if (ev->lds) arg_u64(&a, "lds", ev->lds);
      if (ev->scratch) arg_u64(&a, "scratch", ev->scratch);
      arg_str(&a, "mangled", ev->mangled);
      if (ev->kinfo) {
        const char *ka = kinfo_args(c, ev->kinfo);
        arg_open(&a);
        rtg_jsonw_raw(&c->out.w, ka, strlen(ka));
      }
      if (ev->graph) {
        arg_u64(&a, "graph", ev->graph);
        arg_u64(&a, "node", ev->node);
      }
      args_end(&a);
    }
    break;
  }
  case CV_COPY: {
    t = tracks_lane(&c->ts, ev->proc, TK_COPY, ev->device, ev->has_engine ? ev->queue : UINT64_MAX,
                    ev->start, ev->end);
    char name[128];
    slice(c, t, cv_copy_name(ev, name, sizeof name), "copy", ev->start, ev->end);
    arg_str(&a, "kind", ev->name);
    if (ev->has_bytes) {
      arg_u64(&a, "bytes", ev->bytes);
      if (ev->end > ev->start) {
        /* bytes/ns is GB/s; three decimals, written like a time */
        arg_key(&a, "GB/s");
        rtg_jsonw_ns_as_us(&c->out.w, ev->bytes * 1000 / (ev->end - ev->start));
      }
    }
    if (ev->has_agents) {
      arg_u64(&a, "src_agent", ev->src_agent);
      arg_u64(&a, "dst_agent", ev->dst_agent);
    }
    if (ev->has_engine) arg_u64(&a, "engine", ev->queue);
    arg_str(&a, "api", ev->args);
    if (ev->has_corr) arg_u64(&a, "corr", ev->corr);
    if (ev->graph) {
      arg_u64(&a, "graph", ev->graph);
      arg_u64(&a, "node", ev->node);
    }
    args_end(&a);
    break;
  }
  case CV_MARK:
    t = tracks_get(&c->ts, ev->proc, TK_ROCTX, ev->tid, 0, 0);
    ev_begin(c, "i");
    put_str(c, "name", ev->name);
    put_str(c, "cat", "roctx");
    rtg_jsonw_lit(&c->out.w, ",\"s\":\"t\"");
    put_ts(c, "ts", ev->start);
    put_where(c, t);
    rtg_jsonw_ch(&c->out.w, '}');
    return;
  case CV_RANGE:
    /* push/pop ranges nest by construction; start/stop ranges may not */
    if (ev->args && !strcmp(ev->args, "push"))
      t = tracks_get(&c->ts, ev->proc, TK_ROCTX, ev->tid, 0, 0);
    else
      t = tracks_lane(&c->ts, ev->proc, TK_ROCTX, ev->tid, 1, ev->start, ev->end);
    slice(c, t, ev->name, "roctx", ev->start, ev->end);
    arg_str(&a, "op", ev->args);
    if (ev->depth) arg_u64(&a, "depth", ev->depth);
    if (ev->has_corr) arg_u64(&a, "corr", ev->corr);
    if (ev->ancestor) arg_u64(&a, "ancestor", ev->ancestor);
    args_end(&a);
    return;
  case CV_SYSCALL:
    t = tracks_get(&c->ts, ev->proc, TK_SYSCALL, ev->tid, 0, 0);
    slice(c, t, ev->name, "syscall", ev->start, ev->end);
    arg_str(&a, "call", ev->args);
    arg_str(&a, "ret", ev->ret);
    args_end(&a);
    return;
  case CV_MPI:
    t = tracks_get(&c->ts, ev->proc, TK_MPI, ev->tid, 0, 0);
    slice(c, t, ev->name, "mpi", ev->start, ev->end);
    arg_str(&a, "args", ev->args);
    arg_str(&a, "ret", ev->ret);
    args_end(&a);
    return;
  default:
    return;
  }
  /* GPU ops: one arrow each, from the HIP call (by correlation id) when the
   * input has it, else from the host dispatch (by queue and packet id).
   * Which one cannot depend on the order of the records: an op whose call
   * has not been seen waits for it, and goes to the dispatch table only once
   * the call is known to be absent (op_without_call). */
  if (ctx->opt.flows) {
    corr_val op = {t->cpid, t->ctid, ev->start, ev->type != CV_COPY ? dispatch_key(ev) : 0}, host;
    if (ev->has_corr) {
      if (corr_op(&c->calls, corr_key(ev->proc, ev->corr), op, &host))
        flow(c, &flow_launches, host, op);
    } else if (op.d && corr_op(&c->dispatch, op.d, op, &host)) {
      flow(c, &flow_dispatches, host, op);
    }
  }
}

/* An op with a correlation id whose HIP call is not in the input. */
static void op_without_call(void *arg, corr_val op) {
  chrome *c = arg;
  corr_val host;
  if (op.d && corr_op(&c->dispatch, op.d, op, &host)) flow(c, &flow_dispatches, host, op);
}

/* Merged Chrome JSON events go out as they were (cat_timelines.py). */
static void chrome_json_event(void *st, const void *item) {
  chrome *c = st;
  char *s = cJSON_PrintUnformatted((const cJSON *)item);
  if (!s) return;
  rtg_chrome_raw_event(&c->out, s);
  free(s);
}

/* ------------------------------------------------------------ memory */

/* The bytes in use per agent (shared/memuse.h), one counter per agent of
 * each process, on the process of its GPU tracks: a value at the end of
 * each allocation and each free of a known allocation. */
static void memory_counters(chrome *c) {
  cv_mem *mem = cv_mem_resolve(c->ctx);
  if (!mem) return;
  char dev[64], name[128];
  for (size_t i = 0; i < mem->n; i++) {
    const cv_mem_rec *m = &mem->v[i];
    if (!m->has_agent || (m->op != CV_MEM_ALLOC && !(m->op == CV_MEM_FREE && m->matched))) continue;
    rtg_device_name(m->device, dev, sizeof dev);
    snprintf(name, sizeof name, "Memory in use: %s, pid %u", dev, c->ctx->procs[m->proc].pid);
    ev_begin(c, "C");
    put_str(c, "name", name);
    put_str(c, "cat", "memory");
    put_ts(c, "ts", m->end);
    put_u64(c, "pid", tracks_cpid(&c->ts, m->proc, TK_QUEUE));
    rtg_jsonw_raw(&c->out.w, ",\"args\":{\"bytes\":", 17);
    rtg_jsonw_u64(&c->out.w, m->in_use);
    rtg_jsonw_raw(&c->out.w, "}}", 2);
  }
}

/* ------------------------------------------------------------ metadata */

static bool chrome_close(void *st) {
  chrome *c = st;
  cv_ctx *ctx = c->ctx;
  if (ctx->opt.gap_events) gap_slices(c);
  memory_counters(c);
  rtg_u64map seen = {0};
  char name[1024];
  for (uint32_t i = 0; i < c->ts.n; i++) {
    track *t = &c->ts.t[i];
    bool added;
    rtg_u64map_put(&seen, t->cpid, 0, &added);
    if (added) {
      tracks_process_name(&c->ts, t->cpid, t->proc, t->kind, name, sizeof name);
      rtg_chrome_meta(&c->out, "process_name", t->cpid, NULL, "name", name, 0);
      rtg_chrome_meta(&c->out, "process_sort_index", t->cpid, NULL, "sort_index", NULL, t->cpid);
    }
    tracks_name(&c->ts, t, name, sizeof name);
    rtg_chrome_meta(&c->out, "thread_name", t->cpid, &t->ctid, "name", name, 0);
    rtg_chrome_meta(&c->out, "thread_sort_index", t->cpid, &t->ctid, "sort_index", NULL, t->sort);
  }
  /* the processes of memory counters that have no track (as the
   * Perfetto output names them) */
  const cv_mem *mem = ctx->mem;
  for (size_t i = 0; mem && i < mem->n; i++) {
    if (!mem->v[i].has_agent) continue;
    uint64_t cpid = tracks_cpid(&c->ts, mem->v[i].proc, TK_QUEUE);
    bool added;
    rtg_u64map_put(&seen, cpid, 0, &added);
    if (!added) continue;
    tracks_process_name(&c->ts, cpid, mem->v[i].proc, TK_QUEUE, name, sizeof name);
    rtg_chrome_meta(&c->out, "process_name", cpid, NULL, "name", name, 0);
    rtg_chrome_meta(&c->out, "process_sort_index", cpid, NULL, "sort_index", NULL, cpid);
  }
  rtg_u64map_free(&seen);
  /* pairs that were apart by more than the tables hold */
  corr_finish(&c->calls, flow_launch, c);
  corr_finish(&c->dispatch, flow_dispatch, c);
  bool ok = rtg_chrome_close(&c->out, "}\n");
  if (ctx->opt.verbose && c->ctx->opt.flows) corr_report(ctx->report, &c->calls, &c->dispatch);
  if (ctx->opt.split_size) { /* the parts, from the whole read back */
    if (!ok || fflush(c->f)) {
      ok = false;
      rtg_error("cannot write output: path=%s: %s", ctx->opt.json_out, rtg_out_why());
    } else {
      ok = cv_json_split(c->f, ctx->opt.json_out, ctx->opt.split_size, ctx->opt.quiet);
    }
    fclose(c->f);
  } else {
    if (c->own_f && !rtg_out_close(c->f)) ok = false;
    if (!ok) rtg_error("cannot write output: path=%s: %s", ctx->opt.json_out, rtg_out_why());
  }
  tracks_free(&c->ts);
  if (ctx->opt.gap_events) an_slices_free(&c->gaps);
  corr_free(&c->calls);
  corr_free(&c->dispatch);
  rtg_u64map_free(&c->kargs);
  free(c->pre);
  free(c);
  return ok;
}

const cv_sink cv_chrome_sink = {
    .name = "chrome",
    .open = chrome_open,
    .event = chrome_event,
    .json_event = chrome_json_event,
    .prepare = chrome_prepare,
    .close = chrome_close,
};
