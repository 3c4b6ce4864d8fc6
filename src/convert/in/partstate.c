/* The per-node state of a part (--part) for --summary and --stats, so that
 * --merge with those outputs alone reads it instead of every record.
 *
 * --part reads its inputs once more, each host on its own clock
 * (--no-align), and keeps of every event the statistics look at (calls,
 * kernels, barriers, copies) what they read of it, in dispatch order:
 * its kind, process, name, raw start and end, queue, device, repeated
 * calls, graph node, copy agents, kernel resources and launch shape.
 * After the events come the tables they point into: the names, the
 * processes (host, pid, start, agents), the kernels' resources and the
 * memory records.  --merge makes the hosts' clock map from the files'
 * clock pairs as ever (a header and a summary line per file), moves each
 * state time through its host's map, and hands the events to the
 * statistics in the order all-at-once reading gives them: every sum,
 * standard deviation, median and time-model result is the same.
 *
 * The state's bytes, after the files' and before the index:
 *   events   type byte (0x80: end before start), flags byte, then
 *            varints: process, name + 1 (0: none), start as a zigzag
 *            difference from the previous call's (a call) or GPU op's (an
 *            op), end - start, and the fields the flags name (S_QUEUE ...
 *            S_LDS; the launch shape only for a kernel with registers)
 *   tables   names (length, bytes), processes, kernels, memory records,
 *            the lines by kind (for -v), the number of events again and a
 *            newline
 * and its index line, before RTG-PART-INDEX (which a build without the
 * state reads past):
 *   RTG-PART-STATE version:1 offset:O size:S tables:T events:E clean:1
 * clean:0 why:TEXT: the node's reading was not clean (lines skipped, a
 * file unhealthy or read twice, MPI calls whose refinement of the clock
 * map needs the records): --merge reads the records then. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert.h"
#include "shared/memuse.h"
#include "xalloc.h"

#define STATE_VERSION 1

enum {
  S_QUEUE = 1,
  S_DEV = 2,
  S_POLLS = 4,
  S_GRAPH = 8,
  S_AGENTS = 16,
  S_KINFO = 32,
  S_DIMS = 64,
  S_LDS = 128
};
#define S_BACKWARDS 0x80 /* in the type byte: end before start */

/* ------------------------------------------------------------ writing */

typedef struct wstate {
  cv_ctx *ctx;
  FILE *f;
  uint64_t bytes, events;
  uint64_t prev_start[2]; /* of the calls, of the GPU ops */
  rtg_u64map names;       /* ctx's name id -> local index + 1 */
  uint32_t *name_ids;
  uint32_t nnames, cap_names;
} wstate;

static wstate *wst; /* the capture sink's, while --part reads */

static void put_byte(wstate *w, unsigned c) {
  putc_unlocked((int)c, w->f);
  w->bytes++;
}

static void put_v(wstate *w, uint64_t v) {
  while (v >= 0x80) {
    put_byte(w, (unsigned)(v & 0x7f) | 0x80);
    v >>= 7;
  }
  put_byte(w, (unsigned)v);
}

static void put_str(wstate *w, const char *s) {
  size_t n = s ? strlen(s) : 0;
  put_v(w, n);
  if (n) fwrite(s, 1, n, w->f);
  w->bytes += n;
}

/* The local index + 1 of a name (0: none). */
static uint64_t name_of(wstate *w, const char *s) {
  if (!s) return 0;
  uint32_t id = cv_intern(w->ctx, s);
  bool added;
  uint64_t *v = rtg_u64map_put(&w->names, id, 0, &added);
  if (!v) rtg_out_of_memory("the part's names");
  if (added) {
    if (w->nnames == w->cap_names) {
      w->cap_names = w->cap_names ? 2 * w->cap_names : 256;
      w->name_ids =
          rtg_xrealloc(w->name_ids, w->cap_names * sizeof *w->name_ids, "the part's names");
    }
    w->name_ids[w->nnames++] = id;
    *v = w->nnames;
  }
  return *v;
}

static void *cap_open(cv_ctx *ctx) {
  (void)ctx;
  return wst;
}

static void cap_event(void *st, const cv_event *ev) {
  wstate *w = st;
  switch (ev->type) {
  case CV_HIP_API:
  case CV_HSA_API:
  case CV_KERNEL:
  case CV_BARRIER:
  case CV_COPY:
    break;
  default:
    return;
  }
  unsigned flags = 0;
  if (ev->queue) flags |= S_QUEUE;
  if (ev->device || ev->agent) flags |= S_DEV;
  if (ev->polls || ev->busy) flags |= S_POLLS;
  if (ev->graph || ev->node) flags |= S_GRAPH;
  if (ev->has_agents) flags |= S_AGENTS;
  if (ev->kinfo) flags |= S_KINFO;
  /* the launch shape counts only for a kernel's occupancy row */
  bool shape = ev->kinfo && ev->kinfo->has_regs;
  if (ev->has_dims && shape) flags |= S_DIMS;
  if (ev->has_lds && shape) flags |= S_LDS;
  bool back = ev->end < ev->start;
  put_byte(w, (unsigned)ev->type | (back ? S_BACKWARDS : 0));
  put_byte(w, flags);
  put_v(w, ev->proc);
  put_v(w, name_of(w, ev->name));
  uint64_t *prev = &w->prev_start[ev->type != CV_HIP_API && ev->type != CV_HSA_API];
  int64_t d = (int64_t)(ev->start - *prev);
  put_v(w, (uint64_t)d << 1 ^ (uint64_t)(d >> 63));
  *prev = ev->start;
  put_v(w, back ? ev->start - ev->end : ev->end - ev->start);
  if (flags & S_QUEUE) put_v(w, ev->queue);
  if (flags & S_DEV) put_v(w, ev->device), put_v(w, ev->agent);
  if (flags & S_POLLS) put_v(w, ev->polls), put_v(w, ev->busy);
  if (flags & S_GRAPH) put_v(w, ev->graph), put_v(w, ev->node);
  if (flags & S_AGENTS) put_v(w, ev->src_agent), put_v(w, ev->dst_agent);
  if (flags & S_KINFO) put_v(w, ev->kinfo->index);
  if (flags & S_DIMS) {
    put_v(w, ev->wg.x), put_v(w, ev->wg.y), put_v(w, ev->wg.z);
    put_v(w, ev->grid.x), put_v(w, ev->grid.y), put_v(w, ev->grid.z);
  }
  if (flags & S_LDS) put_v(w, ev->lds);
  w->events++;
}

static bool cap_close(void *st) {
  (void)st;
  return true;
}

static const cv_sink capture_sink = {
    .name = "part state",
    .open = cap_open,
    .event = cap_event,
    .close = cap_close,
};

static void put_tables(wstate *w) {
  cv_ctx *ctx = w->ctx;
  put_v(w, w->nnames);
  for (uint32_t i = 0; i < w->nnames; i++) put_str(w, cv_str(ctx, w->name_ids[i]));
  put_v(w, ctx->nprocs);
  for (uint32_t i = 0; i < ctx->nprocs; i++) {
    const cv_proc *p = &ctx->procs[i];
    put_str(w, cv_str(ctx, ctx->hosts[p->host]));
    put_v(w, p->pid);
    put_v(w, p->boot_ns);
    const rtg_agents *a = &p->agents;
    put_v(w, a->n);
    for (size_t k = 0; k < a->n; k++) {
      put_v(w, a->a[k].index);
      put_v(w, a->a[k].handle);
      put_byte(w, a->a[k].has_handle);
      put_byte(w, (unsigned)a->a[k].cls);
      put_str(w, a->a[k].desc);
    }
    put_v(w, a->nunknown);
    for (size_t k = 0; k < a->nunknown; k++) put_v(w, a->unknown[k]);
  }
  put_v(w, ctx->nkinfos);
  for (uint32_t i = 0; i < ctx->nkinfos; i++) {
    const cv_kinfo *k = ctx->kinfos[i];
    put_v(w, k->proc);
    put_v(w, k->id);
    put_str(w, k->name);
    put_byte(w, k->arch != NULL);
    put_str(w, k->arch);
    put_byte(w, (unsigned)k->has_regs | (unsigned)k->has_lds << 1 | (unsigned)k->has_scratch << 2 |
                    (unsigned)k->has_kernarg << 3 | (unsigned)k->main_pass << 4);
    put_v(w, k->arch_vgpr), put_v(w, k->accum_vgpr), put_v(w, k->sgpr), put_v(w, k->wavefront);
    put_v(w, k->lds), put_v(w, k->scratch), put_v(w, k->kernarg);
  }
  const cv_mem *mem = ctx->mem;
  put_v(w, mem ? mem->n : 0);
  for (size_t i = 0; mem && i < mem->n; i++) {
    const cv_mem_rec *m = &mem->v[i];
    put_v(w, m->start), put_v(w, m->end), put_v(w, m->tid), put_v(w, m->addr);
    put_v(w, m->size), put_v(w, m->corr), put_v(w, m->proc), put_v(w, m->agent);
    put_v(w, m->device);
    put_byte(w, m->op), put_byte(w, m->kind);
    put_byte(w, (unsigned)m->has_agent | (unsigned)m->has_corr << 1 | (unsigned)m->vmem << 2);
  }
  put_v(w, CVC_COUNT);
  for (int i = 0; i < CVC_COUNT; i++) put_v(w, ctx->counts[i]);
  put_v(w, w->events);
  put_byte(w, '\n'); /* (so that the files' index lines start lines) */
}

/* Why the node's reading gives no state to merge by; NULL: it does. */
static const char *not_clean(const cv_ctx *ctx, bool read_ok) {
  static const struct {
    enum cv_count c;
    const char *why;
  } skips[] = {
      {CVC_BAD, "lines that did not parse"},   {CVC_BINARY, "lines with NUL bytes"},
      {CVC_TOO_LONG, "lines too long"},        {CVC_BAD_TIME, "records with bad times"},
      {CVC_TRUNCATED, "a last line cut off"},  {CVC_DUPLICATE, "records read before"},
      {CVC_JSON_EVENTS, "Chrome JSON events"},
  };
  if (!read_ok) return "a file could not be read";
  for (size_t i = 0; i < sizeof skips / sizeof *skips; i++)
    if (ctx->counts[skips[i].c]) return skips[i].why;
  if (ctx->unhealthy) return "an incomplete trace";
  if (ctx->not_traces) return "a file that is no trace";
  if (ctx->counts[CVC_MPI] || ctx->mpi) return "MPI calls (the clock map's refinement)";
  return NULL;
}

bool cv_part_state_write(cv_ctx *ctx, FILE *f, uint64_t at, char *line, size_t cap) {
  wstate w = {.ctx = ctx, .f = f};
  wst = &w;
  ctx->opt.no_align = true; /* raw times: moved at the merge */
  if (!ctx->report) ctx->report = stderr;
  if (!cv_add_sink(ctx, &capture_sink)) return false;
  bool read_ok = cv_read_inputs(ctx);
  ctx->nsinks = 0;
  wst = NULL;
  uint64_t tables = w.bytes;
  put_tables(&w);
  const char *why = not_clean(ctx, read_ok);
  snprintf(line, cap,
           "RTG-PART-STATE version:%d offset:%" PRIu64 " size:%" PRIu64 " tables:%" PRIu64
           " events:%" PRIu64 " clean:%d%s%s\n",
           STATE_VERSION, at, w.bytes, tables, w.events, !why, why ? " why:" : "", why ? why : "");
  rtg_u64map_free(&w.names);
  free(w.name_ids);
  return true;
}

/* ------------------------------------------------------------ reading */

typedef struct rstate {
  FILE *f;
  uint64_t left; /* bytes of the section not read yet */
  bool bad;
} rstate;

static unsigned get_byte(rstate *r) {
  int c;
  if (r->bad || !r->left || (c = getc_unlocked(r->f)) == EOF) {
    r->bad = true;
    return 0;
  }
  r->left--;
  return (unsigned)c;
}

static uint64_t get_v(rstate *r) {
  uint64_t v = 0;
  for (unsigned shift = 0; shift < 64; shift += 7) {
    unsigned c = get_byte(r);
    v |= (uint64_t)(c & 0x7f) << shift;
    if (!(c & 0x80)) return v;
  }
  r->bad = true;
  return 0;
}

/* A string, NULL-terminated, in memory of its own; "" when it was cut. */
static char *get_str(rstate *r) {
  uint64_t n = get_v(r);
  if (r->bad || n > r->left) {
    r->bad = true;
    return rtg_xcalloc(1, 1, "the part's state");
  }
  char *s = rtg_xmalloc((size_t)n + 1, "the part's state");
  if (n && fread(s, 1, (size_t)n, r->f) != n) r->bad = true;
  r->left -= n;
  s[r->bad ? 0 : n] = 0;
  return s;
}

/* A part's tables, read before any event of any part is taken. */
typedef struct rproc {
  char *host;
  uint32_t pid;
  uint64_t boot_ns;
  rtg_agents agents;
} rproc;

typedef struct tables {
  char **names;
  uint64_t nnames;
  rproc *procs;
  uint64_t nprocs;
  cv_kinfo *kinfos;
  char **kstrs; /* each kernel's name and arch (NULL: none), interned at the merge */
  uint64_t nkinfos;
  cv_mem_rec *mem;
  uint64_t nmem;
  uint64_t counts[CVC_COUNT]; /* the node's lines by kind, for -v */
} tables;

/* At most n entries of at least min bytes each fit in what is left. */
static bool fits(rstate *r, uint64_t n, uint64_t min) {
  if (n <= r->left / min) return true;
  r->bad = true;
  return false;
}

static void free_tables(tables *t) {
  for (uint64_t i = 0; i < t->nnames; i++) free(t->names[i]);
  free(t->names);
  for (uint64_t i = 0; i < t->nprocs; i++) {
    free(t->procs[i].host);
    rtg_agents_free(&t->procs[i].agents);
  }
  free(t->procs);
  for (uint64_t i = 0; i < 2 * t->nkinfos; i++) free(t->kstrs[i]);
  free(t->kstrs);
  free(t->kinfos);
  free(t->mem);
  *t = (tables){0};
}

static bool read_tables(rstate *r, tables *t, uint64_t events) {
  *t = (tables){0};
  t->nnames = get_v(r);
  if (!fits(r, t->nnames, 1)) return false;
  t->names = rtg_xcalloc(t->nnames + 1, sizeof *t->names, "the part's names");
  for (uint64_t i = 0; i < t->nnames && !r->bad; i++) t->names[i] = get_str(r);
  t->nprocs = get_v(r);
  if (!fits(r, t->nprocs, 4)) return false;
  t->procs = rtg_xcalloc(t->nprocs + 1, sizeof *t->procs, "the part's processes");
  for (uint64_t i = 0; i < t->nprocs && !r->bad; i++) {
    rproc *p = &t->procs[i];
    p->host = get_str(r);
    p->pid = (uint32_t)get_v(r);
    p->boot_ns = get_v(r);
    uint64_t n = get_v(r);
    if (!fits(r, n, 5)) break;
    p->agents.a = rtg_xcalloc(n + 1, sizeof *p->agents.a, "the part's agents");
    for (; p->agents.n < n && !r->bad; p->agents.n++) {
      rtg_agent *a = &p->agents.a[p->agents.n];
      a->index = get_v(r);
      a->handle = get_v(r);
      a->has_handle = get_byte(r) != 0;
      a->cls = (enum rtg_device_class)(get_byte(r) % 3);
      a->desc = get_str(r);
    }
    n = get_v(r);
    if (!fits(r, n, 1)) break;
    p->agents.unknown = rtg_xcalloc(n + 1, sizeof *p->agents.unknown, "the part's agents");
    for (; p->agents.nunknown < n && !r->bad; p->agents.nunknown++)
      p->agents.unknown[p->agents.nunknown] = get_v(r);
  }
  t->nkinfos = r->bad ? 0 : get_v(r);
  if (!fits(r, t->nkinfos, 12)) return false;
  t->kinfos = rtg_xcalloc(t->nkinfos + 1, sizeof *t->kinfos, "the part's kernels");
  t->kstrs = rtg_xcalloc(2 * t->nkinfos + 1, sizeof *t->kstrs, "the part's kernels");
  for (uint64_t i = 0; i < t->nkinfos && !r->bad; i++) {
    cv_kinfo *k = &t->kinfos[i];
    k->proc = (uint32_t)get_v(r);
    k->id = get_v(r);
    t->kstrs[2 * i] = get_str(r);
    bool arch = get_byte(r);
    char *a = get_str(r);
    if (arch)
      t->kstrs[2 * i + 1] = a;
    else
      free(a);
    unsigned fl = get_byte(r);
    k->has_regs = fl & 1, k->has_lds = fl >> 1 & 1, k->has_scratch = fl >> 2 & 1;
    k->has_kernarg = fl >> 3 & 1, k->main_pass = fl >> 4 & 1;
    k->arch_vgpr = (uint32_t)get_v(r), k->accum_vgpr = (uint32_t)get_v(r);
    k->sgpr = (uint32_t)get_v(r), k->wavefront = (uint32_t)get_v(r);
    k->lds = get_v(r), k->scratch = get_v(r), k->kernarg = get_v(r);
    if (k->proc >= t->nprocs) r->bad = true;
  }
  t->nmem = r->bad ? 0 : get_v(r);
  if (!fits(r, t->nmem, 14)) return false;
  t->mem = rtg_xcalloc(t->nmem + 1, sizeof *t->mem, "the part's memory records");
  for (uint64_t i = 0; i < t->nmem && !r->bad; i++) {
    cv_mem_rec *m = &t->mem[i];
    m->start = get_v(r), m->end = get_v(r), m->tid = get_v(r), m->addr = get_v(r);
    m->size = get_v(r), m->corr = get_v(r), m->proc = (uint32_t)get_v(r);
    m->agent = (uint32_t)get_v(r), m->device = (rtg_device)get_v(r);
    m->op = (uint8_t)get_byte(r), m->kind = (uint8_t)get_byte(r);
    unsigned fl = get_byte(r);
    m->has_agent = fl & 1, m->has_corr = fl >> 1 & 1, m->vmem = fl >> 2 & 1;
    if (m->proc >= t->nprocs || m->op > CV_MEM_UNLOCK || m->kind > CV_MEMK_MANAGED) r->bad = true;
  }
  if (!r->bad && get_v(r) != CVC_COUNT) r->bad = true;
  for (int i = 0; i < CVC_COUNT && !r->bad; i++) t->counts[i] = get_v(r);
  if (!r->bad && (get_v(r) != events || get_byte(r) != '\n' || r->left)) r->bad = true;
  return !r->bad;
}

/* The section [off, off + size) of a part, opened for reading. */
static bool open_section(const char *part, uint64_t off, uint64_t size, rstate *r) {
  *r = (rstate){.f = fopen(part, "rb"), .left = size};
  if (!r->f) {
    rtg_error("cannot open input: path=%s: %s", part, strerror(errno));
    return false;
  }
  if (fseeko(r->f, (off_t)off, SEEK_SET)) {
    rtg_error("cannot read input: path=%s: %s", part, strerror(errno));
    fclose(r->f);
    return false;
  }
  return true;
}

/* Why --merge reads the records rather than the parts' state; NULL: it
 * may read the state. */
static const char *why_records(const cv_ctx *ctx, const cv_part_state *ps, size_t n, bool others,
                               char *buf, size_t cap) {
  const cv_options *o = &ctx->opt;
  if (!o->summary && !o->stats_dir) return "no --summary or --stats";
  if (o->json_out || o->perfetto_out || o->gaps_out || o->sqlite_out || o->workgroups ||
      o->csv_dir || o->otf2_dir || o->analyze_out || o->html_out)
    return "an output beside --summary and --stats needs every record";
  if (o->start_arg || o->end_arg || o->zero_time)
    return "--start, --end and --zero need every record";
  if (others) return "inputs beside the parts";
  for (size_t i = 0; i < n; i++) {
    if (!ps[i].has) {
      snprintf(buf, cap, "%s holds no state (a part of an older rtg-convert)", ps[i].part);
      return buf;
    }
    if (ps[i].version != STATE_VERSION) {
      snprintf(buf, cap, "%s holds a state of version %u, not %d", ps[i].part, ps[i].version,
               STATE_VERSION);
      return buf;
    }
    if (!ps[i].clean) {
      snprintf(buf, cap, "%s: its node's reading gives no state to merge by (%s)", ps[i].part,
               ps[i].why);
      return buf;
    }
  }
  return NULL;
}

/* A time of a process of host on the common axis. */
static uint64_t moved(cv_ctx *ctx, const rtg_clock_host *h, uint64_t t) {
  return h ? rtg_clockmap_apply(h, ctx->clocks.lift_ns, t) : t;
}

/* The events of one part, to the sinks; false after saying why. */
static bool replay(cv_ctx *ctx, const cv_part_state *ps, tables *t) {
  /* its processes, kernels and memory records, as reading them makes them */
  uint32_t *proc = rtg_xcalloc(t->nprocs + 1, sizeof *proc, "the part's processes");
  const rtg_clock_host **clock = rtg_xcalloc(t->nprocs + 1, sizeof *clock, "the part's processes");
  for (uint64_t i = 0; i < t->nprocs; i++) {
    rproc *rp = &t->procs[i];
    uint32_t host = cv_host(ctx, rp->host);
    proc[i] = cv_proc_get(ctx, host, rp->pid);
    clock[i] = ctx->clocks.moves ? cv_host_clock(ctx, host) : NULL;
    cv_proc *p = &ctx->procs[proc[i]];
    p->boot_ns = rp->boot_ns ? moved(ctx, clock[i], rp->boot_ns) : 0;
    rtg_agents_free(&p->agents);
    p->agents = rp->agents;
    rp->agents = (rtg_agents){0};
  }
  uint32_t kbase = ctx->nkinfos;
  for (uint64_t i = 0; i < t->nkinfos; i++) {
    cv_kinfo *k = rtg_xmalloc(sizeof *k, "the kernels' resources");
    *k = t->kinfos[i];
    k->proc = proc[k->proc];
    k->name = cv_str(ctx, cv_intern(ctx, t->kstrs[2 * i]));
    k->arch = t->kstrs[2 * i + 1] ? cv_str(ctx, cv_intern(ctx, t->kstrs[2 * i + 1])) : NULL;
    if (ctx->nkinfos == ctx->cap_kinfos) {
      ctx->cap_kinfos = ctx->cap_kinfos ? ctx->cap_kinfos * 2 : 64;
      ctx->kinfos = rtg_xrealloc(ctx->kinfos, ctx->cap_kinfos * sizeof *ctx->kinfos,
                                 "the kernels' resources");
    }
    k->index = ctx->nkinfos;
    ctx->kinfos[ctx->nkinfos++] = k;
  }
  for (uint64_t i = 0; i < t->nmem; i++) {
    cv_mem_rec m = t->mem[i];
    const rtg_clock_host *h = clock[m.proc];
    m.proc = proc[m.proc];
    m.start = moved(ctx, h, m.start);
    m.end = moved(ctx, h, m.end);
    cv_mem_add(ctx, &m);
  }
  for (int i = 0; i < CVC_COUNT; i++) ctx->counts[i] += t->counts[i];
  const char **names = rtg_xcalloc(t->nnames + 1, sizeof *names, "the part's names");
  for (uint64_t i = 0; i < t->nnames; i++) names[i] = cv_str(ctx, cv_intern(ctx, t->names[i]));

  rstate r;
  bool ok = open_section(ps->part, ps->off, ps->tables, &r);
  uint64_t prev[2] = {0, 0}, n = 0;
  while (ok && n < ps->events && !r.bad) {
    unsigned type = get_byte(&r), flags = get_byte(&r);
    bool back = type & S_BACKWARDS;
    cv_event ev = {.type = (enum cv_type)(type & ~S_BACKWARDS)};
    uint64_t lp = get_v(&r), name = get_v(&r), d = get_v(&r);
    uint64_t *start = &prev[ev.type != CV_HIP_API && ev.type != CV_HSA_API];
    *start += (uint64_t)((int64_t)(d >> 1) ^ -(int64_t)(d & 1));
    uint64_t len = get_v(&r);
    if (flags & S_QUEUE) ev.queue = get_v(&r);
    if (flags & S_DEV) ev.device = (rtg_device)get_v(&r), ev.agent = (uint32_t)get_v(&r);
    if (flags & S_POLLS) ev.polls = get_v(&r), ev.busy = get_v(&r);
    if (flags & S_GRAPH) ev.graph = (uint32_t)get_v(&r), ev.node = (uint32_t)get_v(&r);
    if (flags & S_AGENTS) {
      ev.has_agents = true;
      ev.src_agent = (uint32_t)get_v(&r), ev.dst_agent = (uint32_t)get_v(&r);
    }
    uint64_t k = flags & S_KINFO ? get_v(&r) : UINT64_MAX;
    if (flags & S_DIMS) {
      ev.has_dims = true;
      ev.wg.x = (uint32_t)get_v(&r), ev.wg.y = (uint32_t)get_v(&r), ev.wg.z = (uint32_t)get_v(&r);
      ev.grid.x = (uint32_t)get_v(&r), ev.grid.y = (uint32_t)get_v(&r);
      ev.grid.z = (uint32_t)get_v(&r);
    }
    if (flags & S_LDS) ev.has_lds = true, ev.lds = get_v(&r);
    if (r.bad || lp >= t->nprocs || name > t->nnames || (k != UINT64_MAX && k >= t->nkinfos) ||
        (ev.type != CV_HIP_API && ev.type != CV_HSA_API && ev.type != CV_KERNEL &&
         ev.type != CV_BARRIER && ev.type != CV_COPY)) {
      r.bad = true;
      break;
    }
    ev.proc = proc[lp];
    ev.name = name ? names[name - 1] : NULL;
    ev.kinfo = k != UINT64_MAX ? ctx->kinfos[kbase + k] : NULL;
    ev.start = moved(ctx, clock[lp], *start);
    ev.end = moved(ctx, clock[lp], back ? *start - len : *start + len);
    cv_dispatch(ctx, &ev);
    n++;
  }
  if (ok && (r.bad || r.left)) {
    rtg_error("%s: its state (byte %" PRIu64 " on) is cut short or damaged at its event %" PRIu64
              " (its records are whole: make the part again, or convert them with an output "
              "beside --summary)",
              ps->part, ps->off, n + 1);
    ok = false;
  }
  if (r.f) fclose(r.f);
  free(names);
  free(clock);
  free(proc);
  return ok;
}

int cv_merge_state(cv_ctx *ctx, const cv_part_state *ps, size_t n, bool others,
                   uint64_t records_bytes) {
  if (!ctx->opt.merge) return -1;
  char buf[4200];
  const char *why = why_records(ctx, ps, n, others, buf, sizeof buf);
  if (!ctx->opt.summary && !ctx->opt.stats_dir) return -1;
  if (why) {
    if (ctx->opt.verbose) fprintf(stderr, "rtg-convert: --merge: reading every record: %s\n", why);
    return -1;
  }
  tables *t = rtg_xcalloc(n + 1, sizeof *t, "the parts' state");
  /* every part's tables first: a process in two parts needs the records */
  rtg_u64map seen = {0};
  bool ok = true;
  uint64_t bytes = 0, events = 0;
  for (size_t i = 0; i < n && ok && !why; i++) {
    rstate r;
    ok = open_section(ps[i].part, ps[i].off + ps[i].tables, ps[i].size - ps[i].tables, &r);
    if (ok && !read_tables(&r, &t[i], ps[i].events)) {
      rtg_warning("%s: its state's tables (byte %" PRIu64 " on) are cut short or damaged: "
                  "reading the records",
                  ps[i].part, ps[i].off + ps[i].tables);
      snprintf(buf, sizeof buf, "%s: its state is damaged", ps[i].part);
      why = buf;
    }
    if (r.f) fclose(r.f);
    for (uint64_t k = 0; ok && k < t[i].nprocs; k++) {
      bool added;
      uint64_t key = (uint64_t)cv_intern(ctx, t[i].procs[k].host) << 32 | t[i].procs[k].pid;
      if (!rtg_u64map_put(&seen, key, 0, &added)) rtg_out_of_memory("the parts' processes");
      if (!added) {
        snprintf(buf, sizeof buf, "a process (host %s, pid %u) in two parts", t[i].procs[k].host,
                 t[i].procs[k].pid);
        why = buf;
      }
    }
    bytes += ps[i].size;
    events += ps[i].events;
  }
  rtg_u64map_free(&seen);
  int ret = -1;
  if (!ok) {
    ret = 0;
  } else if (why) {
    if (ctx->opt.verbose) fprintf(stderr, "rtg-convert: --merge: reading every record: %s\n", why);
  } else {
    cv_align_hosts(ctx); /* (from each file's first and last line, as ever) */
    for (size_t i = 0; i < n && ok; i++) ok = replay(ctx, &ps[i], &t[i]);
    if (ok && ctx->opt.verbose)
      fprintf(stderr,
              "rtg-convert: --merge: the parts' state: %" PRIu64 " events, %" PRIu64
              " bytes read in place of %" PRIu64 " bytes of records\n",
              events, bytes, records_bytes);
    ret = ok;
  }
  for (size_t i = 0; i < n; i++) free_tables(&t[i]);
  free(t);
  return ret;
}
