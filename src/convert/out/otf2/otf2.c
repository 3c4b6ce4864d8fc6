/* --otf2 DIR: an OTF2 archive (DIR/trace.otf2, DIR/trace.def, DIR/trace/),
 * written with the OTF2 library, for Vampir and the other OTF2 readers.
 *
 * Locations: one per host thread (its HIP and HSA calls, host dispatch
 * records, ROCTx ranges and marks, syscalls: they nest in time), one per GPU
 * queue (kernels and barriers) and one per copy engine of a GPU (copies).
 * Location groups: a process group per traced process (its threads), an
 * accelerator group per GPU of a process (its queues and engines), under a
 * system tree node per host.  Regions: one per (name, kind): API
 * functions, kernels, barriers, copy directions, ROCTx ranges, syscalls,
 * ROCTx marks.  Each slice is an Enter and a Leave (a mark: both at its
 * time, as OTF2's event stream has no named instant); timestamps are nanoseconds
 * (CLOCK_BOOTTIME, or relative with --zero), with the clock properties
 * saying so: resolution 1e9, the first timestamp as global offset, and
 * the matching wall-clock time when the trace header gave it.
 *
 * OTF2 wants the events of a location in time order and properly nested,
 * and the input gives neither (a call is written when it returns, after the
 * calls it made; files are merged; ops of one queue may overlap).  So the
 * slices are kept as 24-byte records, sorted by (location, start, longest
 * first) in runs of 1 M that go to a temporary file when there are more,
 * merged at the end, and each location is written in one sweep with a
 * stack of open slices.  A slice that overlaps the open one without
 * nesting in it goes to a second location of the same thread or queue
 * ("lane 2"), as the JSON does with lanes.  Memory stays bounded: one run,
 * a read buffer per run, the open slices of one location.
 *
 * Built only when the OTF2 headers are there (Debian: libotf2-trace-dev);
 * without them --otf2 says so. */
#if defined(__has_include)
#if __has_include(<otf2/otf2.h>)
#define RTG_HAVE_OTF2 1
#endif
#endif

#include <dirent.h>
#include <stdarg.h>
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include <sys/stat.h>

#include "convert.h"
#include "jsonw.h"
#include "outfile.h"
#include "xalloc.h"

#ifndef RTG_HAVE_OTF2

static void *otf2_open(cv_ctx *ctx) {
  rtg_error("--otf2: this rtg-convert was built without the OTF2 library (Debian: "
            "apt-get install libotf2-trace-dev, then rebuild)");
  return NULL;
}
static void otf2_event(void *st, const cv_event *ev) {}
static bool otf2_close(void *st) {
  return false;
}

#else

#include <otf2/otf2.h>

#define RUN_SLICES (1u << 20) /* slices sorted in memory at a time (24 MB) */
/* (RTG_CONVERT_OTF2_RUN=N makes runs of N slices: tests spill small inputs) */
#define READ_SLICES 4096      /* per run while merging */
#define MAX_LANES 64          /* per thread or queue; beyond, a slice is cut to nest */

enum loc_class { LC_THREAD, LC_QUEUE, LC_COPY };
enum reg_class {
  RC_HIP,
  RC_HSA,
  RC_DISPATCH,
  RC_KERNEL,
  RC_BARRIER,
  RC_COPY,
  RC_ROCTX,
  RC_SYSCALL,
  RC_MARK,
  RC_MPI
};

typedef struct slice {
  uint32_t loc, region;
  uint64_t start, end;
} slice;

typedef struct base_loc { /* a thread, queue or copy engine of a process */
  uint32_t proc;
  uint8_t cls;
  uint64_t a, b; /* tid; agent and queue; agent and engine (UINT64_MAX: unknown) */
  uint32_t next; /* hash chain, index + 1 */
} base_loc;

typedef struct out_loc { /* a location of the archive: a base location's lane */
  uint32_t base, lane;
  uint64_t id; /* canonical: the base location's rank << 6 | lane */
  uint64_t events;
} out_loc;

typedef struct run {
  long off;      /* where its slices begin in the spill file */
  uint64_t left; /* slices not read yet */
  slice *buf;
  uint32_t pos, n;
} run;

typedef struct otf2w {
  cv_ctx *ctx;
  base_loc *locs;
  uint32_t nlocs, cap_locs;
  rtg_u64map loc_index; /* key hash -> first location + 1 */
  uint32_t last_loc;
  bool have_last;
  rtg_u64map regions; /* name id << 8 | class -> region index */
  uint64_t *region_keys;
  uint32_t nregions, cap_regions;
  slice *mem; /* the current run */
  uint32_t nmem, run_slices;
  FILE *spill;
  run *runs;
  uint32_t nruns;
  uint64_t slices, cut, first, last;
  bool failed;
  const char *dir; /* where the archive is made (outfile.h): its files go to --otf2 DIR */
} otf2w;

/* A new archive replaces the previous one (trace.otf2, trace.def,
 * trace/N.evt and trace/N.def, nothing else), as -o replaces a JSON file:
 * removed when the new one moves in.  False after saying why. */
static bool remove_archive(const char *dir) {
  char p[4096];
  snprintf(p, sizeof p, "%s/trace.otf2", dir);
  struct stat sb;
  if (stat(p, &sb)) return true;
  unlink(p);
  snprintf(p, sizeof p, "%s/trace.def", dir);
  unlink(p);
  snprintf(p, sizeof p, "%s/trace", dir);
  DIR *d = opendir(p);
  struct dirent *e;
  while (d && (e = readdir(d))) {
    size_t n = strspn(e->d_name, "0123456789");
    if (n && (!strcmp(e->d_name + n, ".evt") || !strcmp(e->d_name + n, ".def"))) {
      char f[4400];
      snprintf(f, sizeof f, "%s/%s", p, e->d_name);
      unlink(f);
    }
  }
  if (d) closedir(d);
  if (rmdir(p) && errno != ENOENT) {
    rtg_error("cannot replace the OTF2 archive: path=%s: %s", p, strerror(errno));
    return false;
  }
  return true;
}

static void replace_archive(const char *dir) {
  remove_archive(dir);
}

static void *otf2_open(cv_ctx *ctx) {
  const char *dir = rtg_out_dir(ctx->opt.otf2_dir, replace_archive);
  if (!dir) {
    rtg_error("cannot create directory: path=%s: %s", ctx->opt.otf2_dir, strerror(errno));
    return NULL;
  }
  otf2w *w = rtg_xcalloc(1, sizeof *w, "the OTF2 output");
  w->ctx = ctx;
  w->dir = dir;
  w->run_slices = RUN_SLICES;
  const char *e = getenv("RTG_CONVERT_OTF2_RUN");
  if (e && atol(e) > 0 && atol(e) < RUN_SLICES) w->run_slices = (uint32_t)atol(e);
  w->mem = rtg_xmalloc(w->run_slices * sizeof *w->mem, "the OTF2 output's slices");
  w->first = UINT64_MAX;
  return w;
}

/* ------------------------------------------------------------ collecting */

static uint64_t loc_hash(uint32_t proc, int cls, uint64_t a, uint64_t b) {
  return rtg_mix64(((uint64_t)proc << 2 | (uint64_t)cls) ^ rtg_mix64(a) ^ rtg_mix64(b + 0x9e37)) |
         1;
}

static uint32_t loc_get(otf2w *w, uint32_t proc, int cls, uint64_t a, uint64_t b) {
  if (w->have_last) {
    base_loc *l = &w->locs[w->last_loc];
    if (l->proc == proc && l->cls == cls && l->a == a && l->b == b) return w->last_loc;
  }
  uint64_t h = loc_hash(proc, cls, a, b);
  bool added;
  uint64_t *head = rtg_u64map_put(&w->loc_index, h, 0, &added);
  if (!head) rtg_out_of_memory("the index of OTF2 locations");
  for (uint32_t i = (uint32_t)*head; i; i = w->locs[i - 1].next) {
    base_loc *l = &w->locs[i - 1];
    if (l->proc == proc && l->cls == cls && l->a == a && l->b == b) {
      w->last_loc = i - 1, w->have_last = true;
      return i - 1;
    }
  }
  if (w->nlocs == w->cap_locs) {
    w->cap_locs = w->cap_locs ? w->cap_locs * 2 : 64;
    w->locs = rtg_xrealloc(w->locs, w->cap_locs * sizeof *w->locs, "the OTF2 locations");
  }
  w->locs[w->nlocs] = (base_loc){proc, (uint8_t)cls, a, b, (uint32_t)*head};
  *head = ++w->nlocs;
  w->last_loc = w->nlocs - 1, w->have_last = true;
  return w->nlocs - 1;
}

static uint32_t region_get(otf2w *w, const char *name, int cls) {
  uint64_t key = (uint64_t)cv_intern(w->ctx, name) << 8 | (uint64_t)cls;
  bool added;
  uint64_t *v = rtg_u64map_put(&w->regions, key, w->nregions, &added);
  if (!v) rtg_out_of_memory("the index of OTF2 regions");
  if (added) {
    if (w->nregions == w->cap_regions) {
      w->cap_regions = w->cap_regions ? w->cap_regions * 2 : 256;
      w->region_keys =
          rtg_xrealloc(w->region_keys, w->cap_regions * sizeof *w->region_keys, "the OTF2 regions");
    }
    w->region_keys[w->nregions++] = key;
  }
  return (uint32_t)*v;
}

/* Regions in a canonical order (name, then kind), so that slices with the
 * same times come out the same whatever the input order (qsort has no
 * argument for the comparison: the one sink being sorted). */
static const otf2w *sorting;
static int region_cmp(uint32_t ra, uint32_t rb) {
  if (ra == rb) return 0;
  uint64_t ka = sorting->region_keys[ra], kb = sorting->region_keys[rb];
  int c =
      strcmp(cv_str(sorting->ctx, (uint32_t)(ka >> 8)), cv_str(sorting->ctx, (uint32_t)(kb >> 8)));
  if (c) return c;
  return (ka & 0xff) < (kb & 0xff) ? -1 : (ka & 0xff) > (kb & 0xff);
}

static int slice_cmp(const void *pa, const void *pb) {
  const slice *a = pa, *b = pb;
  if (a->loc != b->loc) return a->loc < b->loc ? -1 : 1;
  if (a->start != b->start) return a->start < b->start ? -1 : 1;
  if (a->end != b->end) return a->end > b->end ? -1 : 1; /* the enclosing one first */
  return region_cmp(a->region, b->region);
}

static void sort_slices(otf2w *w, slice *v, size_t n) {
  sorting = w;
  qsort(v, n, sizeof *v, slice_cmp);
}

/* The run in memory, sorted, to the spill file. */
static void spill_run(otf2w *w) {
  if (!w->spill) {
    w->spill = tmpfile();
    if (!w->spill) rtg_die(errno, "--otf2: cannot create a temporary file");
  }
  sort_slices(w, w->mem, w->nmem);
  run *nr = rtg_xrealloc(w->runs, (w->nruns + 1) * sizeof *nr, "the OTF2 output's sorted runs");
  w->runs = nr;
  w->runs[w->nruns++] = (run){ftell(w->spill), w->nmem, NULL, 0, 0};
  if (fwrite(w->mem, sizeof *w->mem, w->nmem, w->spill) != w->nmem)
    rtg_die(errno, "--otf2: cannot write the temporary file");
  w->nmem = 0;
}

static void add(otf2w *w, uint32_t loc, uint32_t region, const cv_event *ev) {
  uint64_t base = w->ctx->time_base;
  uint64_t s = ev->start > base ? ev->start - base : 0, e = ev->end > base ? ev->end - base : 0;
  if (e < s) e = s;
  if (w->nmem == w->run_slices) spill_run(w);
  w->mem[w->nmem++] = (slice){loc, region, s, e};
  w->slices++;
  if (s < w->first) w->first = s;
  if (e > w->last) w->last = e;
}

static void otf2_event(void *st, const cv_event *ev) {
  otf2w *w = st;
  const char *name = ev->name ? ev->name : "";
  int rc;
  uint32_t loc;
  switch (ev->type) {
  case CV_HIP_API:
  case CV_HSA_API:
    rc = ev->type == CV_HIP_API ? RC_HIP : RC_HSA;
    if (w->ctx->opt.kernel_names && ev->kernel && *ev->kernel) name = ev->kernel; /* -k */
    loc = loc_get(w, ev->proc, LC_THREAD, ev->tid, 0);
    break;
  case CV_HOST_DISPATCH:
  case CV_HOST_BARRIER:
    rc = RC_DISPATCH;
    loc = loc_get(w, ev->proc, LC_THREAD, ev->tid, 0);
    break;
  case CV_RANGE:
    rc = RC_ROCTX;
    loc = loc_get(w, ev->proc, LC_THREAD, ev->tid, 0);
    break;
  case CV_MARK: /* an instant: OTF2's event stream has no named one, so a
                 * region entered and left at the same time */
    rc = RC_MARK;
    loc = loc_get(w, ev->proc, LC_THREAD, ev->tid, 0);
    break;
  case CV_SYSCALL:
    rc = RC_SYSCALL;
    loc = loc_get(w, ev->proc, LC_THREAD, ev->tid, 0);
    break;
  case CV_MPI:
    rc = RC_MPI;
    loc = loc_get(w, ev->proc, LC_THREAD, ev->tid, 0);
    break;
  case CV_KERNEL:
  case CV_BARRIER:
    rc = ev->type == CV_KERNEL ? RC_KERNEL : RC_BARRIER;
    loc = loc_get(w, ev->proc, LC_QUEUE, ev->device, ev->queue);
    break;
  case CV_COPY:
    rc = RC_COPY;
    loc = loc_get(w, ev->proc, LC_COPY, ev->device, ev->has_engine ? ev->queue : UINT64_MAX);
    break;
  default:
    return;
  }
  add(w, loc, region_get(w, name, rc), ev);
}

/* ------------------------------------------------------------ merging */

/* The next slice in (location, time) order, from memory or the runs. */
typedef struct merger {
  otf2w *w;
  uint32_t mem_pos;
} merger;

static bool run_fill(otf2w *w, run *r) {
  if (r->pos < r->n) return true;
  if (!r->left) return false;
  uint32_t n = r->left < READ_SLICES ? (uint32_t)r->left : READ_SLICES;
  if (fseek(w->spill, r->off, SEEK_SET) || fread(r->buf, sizeof *r->buf, n, w->spill) != n)
    rtg_die(ferror(w->spill) ? errno : 0, "--otf2: cannot read the temporary file back");
  r->off += (long)(n * sizeof *r->buf);
  r->left -= n;
  r->pos = 0, r->n = n;
  return true;
}

static bool merge_next(merger *m, slice *out) {
  otf2w *w = m->w;
  const slice *best = m->mem_pos < w->nmem ? &w->mem[m->mem_pos] : NULL;
  run *from = NULL;
  for (uint32_t i = 0; i < w->nruns; i++) { /* few runs: one per 1 M slices */
    run *r = &w->runs[i];
    if (!run_fill(w, r)) continue;
    if (!best || slice_cmp(&r->buf[r->pos], best) < 0) best = &r->buf[r->pos], from = r;
  }
  if (!best) return false;
  *out = *best;
  if (from)
    from->pos++;
  else
    m->mem_pos++;
  return true;
}

/* ------------------------------------------------------------ writing */

typedef struct open_slice {
  uint64_t end;
  uint32_t region;
} open_slice;

typedef struct lane {
  uint32_t out; /* index into the archive's locations */
  OTF2_EvtWriter *ew;
  open_slice *stack;
  uint32_t depth, cap;
} lane;

typedef struct writer {
  otf2w *w;
  OTF2_Archive *ar;
  /* ranks in a canonical order (locations by host, pid, kind, ids;
   * regions by name): the archive does not depend on the input order */
  uint32_t *loc_rank, *region_rank, *region_order;
  out_loc *outs;
  uint32_t nouts, cap_outs;
  lane lanes[MAX_LANES];
  uint32_t nlanes;
  bool error;
  char why[512]; /* the library's first error message */
} writer;

/* The library's errors: the first one kept, none printed (it prints a
 * line for every call up the stack, dozens for one full disk); the sink
 * says it in one line. */
static OTF2_ErrorCode quiet_error(void *arg, const char *file, uint64_t line, const char *function,
                                  OTF2_ErrorCode code, const char *fmt, va_list va) {
  writer *wr = arg;
  if (!wr->why[0]) {
    int n = snprintf(wr->why, sizeof wr->why, "%s", OTF2_Error_GetDescription(code));
    if (fmt && *fmt && n > 0 && (size_t)n + 2 < sizeof wr->why) {
      wr->why[n++] = ':', wr->why[n++] = ' ';
      vsnprintf(wr->why + n, sizeof wr->why - (size_t)n, fmt, va);
    }
  }
  return code;
}

static void check(writer *wr, OTF2_ErrorCode e) {
  if (e != OTF2_SUCCESS && !wr->error) wr->error = true;
}

static void leave_until(writer *wr, lane *l, uint64_t t) {
  while (l->depth && l->stack[l->depth - 1].end <= t) {
    open_slice *o = &l->stack[--l->depth];
    check(wr, OTF2_EvtWriter_Leave(l->ew, NULL, o->end, wr->region_rank[o->region]));
    wr->outs[l->out].events++;
  }
}

static lane *lane_new(writer *wr, uint32_t base) {
  lane *l = &wr->lanes[wr->nlanes];
  if (wr->nouts == wr->cap_outs) {
    wr->cap_outs = wr->cap_outs ? wr->cap_outs * 2 : 64;
    wr->outs = rtg_xrealloc(wr->outs, wr->cap_outs * sizeof *wr->outs, "the OTF2 writers");
  }
  uint64_t id = (uint64_t)wr->loc_rank[base] << 6 | wr->nlanes;
  wr->outs[wr->nouts] = (out_loc){base, wr->nlanes, id, 0};
  l->out = wr->nouts++;
  l->ew = OTF2_Archive_GetEvtWriter(wr->ar, id);
  if (!l->ew) {
    rtg_error("--otf2: cannot open the event writer of location %llu", (unsigned long long)id);
    wr->error = true;
  }
  l->depth = 0;
  wr->nlanes++;
  return l;
}

static void push(lane *l, const slice *s) {
  if (l->depth == l->cap) {
    l->cap = l->cap ? l->cap * 2 : 16;
    l->stack = rtg_xrealloc(l->stack, l->cap * sizeof *l->stack, "an OTF2 location's stack");
  }
  l->stack[l->depth++] = (open_slice){s->end, s->region};
}

static void location_end(writer *wr) {
  for (uint32_t i = 0; i < wr->nlanes; i++) {
    lane *l = &wr->lanes[i];
    leave_until(wr, l, UINT64_MAX);
    if (l->ew) check(wr, OTF2_Archive_CloseEvtWriter(wr->ar, l->ew));
    l->ew = NULL;
  }
  wr->nlanes = 0;
}

/* One slice of the current location: on the first lane where it nests. */
static void place(writer *wr, slice s) {
  lane *l = NULL;
  for (uint32_t i = 0; i < wr->nlanes; i++) {
    lane *c = &wr->lanes[i];
    leave_until(wr, c, s.start);
    if (!c->depth || c->stack[c->depth - 1].end >= s.end) {
      l = c;
      break;
    }
  }
  if (!l && wr->nlanes < MAX_LANES) l = lane_new(wr, s.loc);
  if (!l) { /* out of lanes: cut the slice to end with the open one */
    l = &wr->lanes[wr->nlanes - 1];
    s.end = l->stack[l->depth - 1].end;
    wr->w->cut++;
  }
  if (!l->ew) return;
  check(wr, OTF2_EvtWriter_Enter(l->ew, NULL, s.start, wr->region_rank[s.region]));
  wr->outs[l->out].events++;
  push(l, &s);
}

static void write_events(writer *wr) {
  otf2w *w = wr->w;
  if (w->nruns) {
    spill_run(w); /* the last run too: then one merge over them all */
    for (uint32_t i = 0; i < w->nruns; i++) {
      w->runs[i].buf = rtg_xmalloc(READ_SLICES * sizeof(slice), "the OTF2 output's merge");
    }
  } else {
    sort_slices(w, w->mem, w->nmem);
  }
  merger m = {w, 0};
  slice s;
  uint32_t cur = UINT32_MAX;
  while (merge_next(&m, &s)) {
    if (s.loc != cur) {
      location_end(wr);
      cur = s.loc;
      lane_new(wr, cur);
    }
    place(wr, s);
  }
  location_end(wr);
  for (uint32_t i = 0; i < MAX_LANES; i++) free(wr->lanes[i].stack);
  for (uint32_t i = 0; i < w->nruns; i++) free(w->runs[i].buf);
}

/* Strings are defined once each: strtab id -> string ref + 1. */
typedef struct strings {
  OTF2_GlobalDefWriter *gw;
  rtg_u64map ids;
  uint32_t n;
  writer *wr;
} strings;

/* Definitions in valid UTF-8, as the JSON: bytes that are not become
 * U+FFFD (the input's names are raw bytes). */
static const char *utf8_clean(const char *text, char **tmp) {
  size_t n = strlen(text), i = 0;
  int k;
  while (i < n && (k = rtg_utf8_seq_len((const unsigned char *)text + i, n - i))) i += (size_t)k;
  if (i == n) return text;
  char *o = *tmp = rtg_xmalloc(3 * n + 1, "an OTF2 string");
  for (i = 0; i < n;) {
    k = rtg_utf8_seq_len((const unsigned char *)text + i, n - i);
    if (k) {
      memcpy(o, text + i, (size_t)k), o += k, i += (size_t)k;
    } else {
      memcpy(o, "\xEF\xBF\xBD", 3), o += 3, i++;
    }
  }
  *o = 0;
  return *tmp;
}

static OTF2_StringRef str_ref(strings *s, const char *text) {
  char *tmp = NULL;
  text = utf8_clean(text, &tmp);
  uint32_t id = cv_intern(s->wr->w->ctx, text);
  bool added;
  uint64_t *v = rtg_u64map_put(&s->ids, id, s->n, &added);
  if (!v) rtg_out_of_memory("the index of OTF2 strings");
  if (added) check(s->wr, OTF2_GlobalDefWriter_WriteString(s->gw, s->n++, text));
  free(tmp);
  return (OTF2_StringRef)*v;
}

static const char *const region_kind[] = {
    [RC_HIP] = "HIP API",       [RC_HSA] = "HSA API",         [RC_DISPATCH] = "host dispatch",
    [RC_KERNEL] = "GPU kernel", [RC_BARRIER] = "GPU barrier", [RC_COPY] = "GPU copy",
    [RC_ROCTX] = "ROCTx range", [RC_SYSCALL] = "syscall",     [RC_MARK] = "ROCTx mark",
    [RC_MPI] = "MPI call",
};

static void write_regions(writer *wr, strings *ss) {
  otf2w *w = wr->w;
  for (uint32_t i = 0; i < w->nregions; i++) {
    uint64_t key = w->region_keys[wr->region_order[i]];
    int rc = (int)(key & 0xff);
    OTF2_StringRef name = str_ref(ss, cv_str(w->ctx, (uint32_t)(key >> 8)));
    bool mpi_barrier = rc == RC_MPI && !strcmp(cv_str(w->ctx, (uint32_t)(key >> 8)), "MPI_Barrier");
    OTF2_RegionRole role = rc == RC_BARRIER || mpi_barrier ? OTF2_REGION_ROLE_BARRIER
                           : rc == RC_COPY                 ? OTF2_REGION_ROLE_DATA_TRANSFER
                           : rc == RC_DISPATCH             ? OTF2_REGION_ROLE_TASK_CREATE
                           : rc == RC_ROCTX                ? OTF2_REGION_ROLE_CODE
                           : rc == RC_MARK                 ? OTF2_REGION_ROLE_ARTIFICIAL
                                                           : OTF2_REGION_ROLE_FUNCTION;
    OTF2_Paradigm par = rc == RC_ROCTX || rc == RC_MARK ? OTF2_PARADIGM_USER
                        : rc == RC_SYSCALL              ? OTF2_PARADIGM_UNKNOWN
                        : rc == RC_MPI                  ? OTF2_PARADIGM_MPI
                                                        : OTF2_PARADIGM_HIP;
    check(wr, OTF2_GlobalDefWriter_WriteRegion(ss->gw, i, name, name, str_ref(ss, region_kind[rc]),
                                               role, par, OTF2_REGION_FLAG_NONE,
                                               OTF2_UNDEFINED_STRING, 0, 0));
  }
}

static void loc_name(const otf2w *w, const base_loc *l, uint32_t lane, char *buf, size_t cap) {
  char agent[256];
  int n;
  if (l->cls == LC_THREAD) {
    n = snprintf(buf, cap, "Thread %llu", (unsigned long long)l->a);
  } else {
    cv_device_label(w->ctx, l->proc, (rtg_device)l->a, agent, sizeof agent);
    if (l->cls == LC_QUEUE)
      n = snprintf(buf, cap, "%s queue %llu", agent, (unsigned long long)l->b);
    else if (l->b != UINT64_MAX)
      n = snprintf(buf, cap, "%s copy engine %llu", agent, (unsigned long long)l->b);
    else
      n = snprintf(buf, cap, "%s copies", agent);
  }
  if (lane && n > 0 && (size_t)n < cap) snprintf(buf + n, cap - (size_t)n, " (lane %u)", lane + 1);
}

/* System tree (a node per host), location groups (a process, a GPU of a
 * process) and the locations. */
static void write_locations(writer *wr, strings *ss) {
  otf2w *w = wr->w;
  cv_ctx *ctx = w->ctx;
  rtg_u64map hosts = {0}, groups = {0};
  uint32_t nnodes = 0, ngroups = 0;
  char name[1024];
  for (uint32_t i = 0; i < wr->nouts; i++) {
    const base_loc *l = &w->locs[wr->outs[i].base];
    const cv_proc *p = &ctx->procs[l->proc];
    bool added;
    uint64_t *node = rtg_u64map_put(&hosts, p->host, nnodes, &added);
    if (!node) rtg_out_of_memory("the OTF2 system tree");
    if (added) {
      const char *h = cv_str(ctx, ctx->hosts[p->host]);
      check(wr, OTF2_GlobalDefWriter_WriteSystemTreeNode(
                    ss->gw, nnodes++, str_ref(ss, *h ? h : "unknown host"), str_ref(ss, "node"),
                    OTF2_UNDEFINED_SYSTEM_TREE_NODE));
    }
    uint64_t *pg = rtg_u64map_put(&groups, (uint64_t)l->proc << 1, ngroups, &added);
    if (!pg) rtg_out_of_memory("the OTF2 location groups");
    if (added) {
      const char *exe = p->exe != UINT32_MAX ? cv_str(ctx, p->exe) : "";
      const char *base = strrchr(exe, '/');
      snprintf(name, sizeof name, "%s%spid %u", base ? base + 1 : exe, *exe ? " " : "", p->pid);
      check(wr, OTF2_GlobalDefWriter_WriteLocationGroup(
                    ss->gw, ngroups++, str_ref(ss, name), OTF2_LOCATION_GROUP_TYPE_PROCESS,
                    (OTF2_SystemTreeNodeRef)*node, OTF2_UNDEFINED_LOCATION_GROUP));
    }
    uint64_t group = *pg;
    if (l->cls != LC_THREAD) { /* the GPU's group, made by the process's */
      uint64_t key = rtg_mix64((uint64_t)l->proc << 1 | 1) ^ l->a;
      uint64_t *gg = rtg_u64map_put(&groups, key, ngroups, &added);
      if (!gg) rtg_out_of_memory("the OTF2 location groups");
      if (added) {
        cv_device_label(ctx, l->proc, (rtg_device)l->a, name, sizeof name);
        check(wr, OTF2_GlobalDefWriter_WriteLocationGroup(
                      ss->gw, ngroups++, str_ref(ss, name), OTF2_LOCATION_GROUP_TYPE_ACCELERATOR,
                      (OTF2_SystemTreeNodeRef)*node, (OTF2_LocationGroupRef)group));
      }
      group = *gg;
    }
    loc_name(w, l, wr->outs[i].lane, name, sizeof name);
    check(wr, OTF2_GlobalDefWriter_WriteLocation(ss->gw, wr->outs[i].id, str_ref(ss, name),
                                                 l->cls == LC_THREAD
                                                     ? OTF2_LOCATION_TYPE_CPU_THREAD
                                                     : OTF2_LOCATION_TYPE_ACCELERATOR_STREAM,
                                                 wr->outs[i].events, (OTF2_LocationGroupRef)group));
  }
  rtg_u64map_free(&hosts);
  rtg_u64map_free(&groups);
}

static int loc_cmp(const void *pa, const void *pb) {
  const base_loc *a = &sorting->locs[*(const uint32_t *)pa],
                 *b = &sorting->locs[*(const uint32_t *)pb];
  const cv_ctx *ctx = sorting->ctx;
  const cv_proc *p = &ctx->procs[a->proc], *q = &ctx->procs[b->proc];
  int c = strcmp(cv_str(ctx, ctx->hosts[p->host]), cv_str(ctx, ctx->hosts[q->host]));
  if (c) return c;
  if (p->pid != q->pid) return p->pid < q->pid ? -1 : 1;
  if (a->cls != b->cls) return a->cls < b->cls ? -1 : 1;
  if (a->a != b->a) return a->a < b->a ? -1 : 1;
  return a->b < b->b ? -1 : a->b > b->b;
}

static int region_idx_cmp(const void *pa, const void *pb) {
  return region_cmp(*(const uint32_t *)pa, *(const uint32_t *)pb);
}

static int out_cmp(const void *pa, const void *pb) {
  const out_loc *a = pa, *b = pb;
  return a->id < b->id ? -1 : a->id > b->id;
}

/* order[rank] = index, and rank[index] = rank */
static uint32_t *ranks(otf2w *w, uint32_t n, int (*cmp)(const void *, const void *),
                       uint32_t **order_out) {
  uint32_t *order = rtg_xmalloc((n + 1) * sizeof *order, "an OTF2 definition order");
  uint32_t *rank = rtg_xmalloc((n + 1) * sizeof *rank, "an OTF2 definition order");
  for (uint32_t i = 0; i < n; i++) order[i] = i;
  sorting = w;
  qsort(order, n, sizeof *order, cmp);
  for (uint32_t i = 0; i < n; i++) rank[order[i]] = i;
  if (order_out)
    *order_out = order;
  else
    free(order);
  return rank;
}

static OTF2_FlushType pre_flush(void *user, OTF2_FileType type, OTF2_LocationRef loc, void *caller,
                                bool final) {
  return OTF2_FLUSH;
}

static bool otf2_close(void *st) {
  otf2w *w = st;
  cv_ctx *ctx = w->ctx;
  writer wr = {.w = w};
  wr.loc_rank = ranks(w, w->nlocs, loc_cmp, NULL);
  wr.region_rank = ranks(w, w->nregions, region_idx_cmp, &wr.region_order);
  static OTF2_FlushCallbacks flush = {pre_flush, NULL};
  OTF2_ErrorCallback old_handler = OTF2_Error_RegisterCallback(quiet_error, &wr);
  /* the smallest chunks: a writer's buffer is cleared when made, and a
   * trace has a writer per location (lanes included) */
  wr.ar = OTF2_Archive_Open(w->dir, "trace", OTF2_FILEMODE_WRITE, OTF2_CHUNK_SIZE_MIN,
                            OTF2_CHUNK_SIZE_MIN, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (!wr.ar) {
    wr.error = true;
  } else {
    check(&wr, OTF2_Archive_SetFlushCallbacks(wr.ar, &flush, NULL));
    check(&wr, OTF2_Archive_SetSerialCollectiveCallbacks(wr.ar));
    check(&wr, OTF2_Archive_SetCreator(wr.ar, "rtg-convert " RTG_VERSION));
    check(&wr, OTF2_Archive_SetDescription(wr.ar, "rtg trace of ROCm GPU activity"));
    check(&wr, OTF2_Archive_OpenEvtFiles(wr.ar));
    write_events(&wr);
    check(&wr, OTF2_Archive_CloseEvtFiles(wr.ar));
    if (wr.nouts)
      qsort(wr.outs, wr.nouts, sizeof *wr.outs, out_cmp); /* definitions in that order */
    /* local definitions: none, but each location has its (empty) file */
    check(&wr, OTF2_Archive_OpenDefFiles(wr.ar));
    for (uint32_t i = 0; i < wr.nouts; i++) {
      OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(wr.ar, wr.outs[i].id);
      if (dw) check(&wr, OTF2_Archive_CloseDefWriter(wr.ar, dw));
    }
    check(&wr, OTF2_Archive_CloseDefFiles(wr.ar));

    strings ss = {.wr = &wr, .gw = OTF2_Archive_GetGlobalDefWriter(wr.ar)};
    if (!ss.gw) {
      wr.error = true;
    } else {
      uint64_t first = w->slices ? w->first : 0, len = w->slices ? w->last - w->first : 0;
      uint64_t wall = OTF2_UNDEFINED_TIMESTAMP;
      if (ctx->have_clock_offset)
        wall = (uint64_t)((int64_t)(first + ctx->time_base) + ctx->realtime_minus_boot);
      check(&wr, OTF2_GlobalDefWriter_WriteClockProperties(ss.gw, 1000000000, first, len, wall));
      write_regions(&wr, &ss);
      write_locations(&wr, &ss);
    }
    rtg_u64map_free(&ss.ids);
    check(&wr, OTF2_Archive_Close(wr.ar));
  }
  OTF2_Error_RegisterCallback(old_handler, NULL);
  if (wr.error)
    rtg_error("cannot write the OTF2 archive: path=%s: %s", ctx->opt.otf2_dir,
              wr.why[0] ? wr.why : "the library failed");
  if (ctx->opt.verbose)
    fprintf(ctx->report, "OTF2: %llu slices, %u locations, %u regions, %llu cut to nest\n",
            (unsigned long long)w->slices, wr.nouts, w->nregions, (unsigned long long)w->cut);
  if (w->cut && !ctx->opt.quiet)
    rtg_warning("--otf2: %llu slices cut short to nest: more than %d overlapping on one thread "
                "or queue",
                (unsigned long long)w->cut, MAX_LANES);
  bool ok = !wr.error;
  free(wr.outs);
  free(wr.loc_rank);
  free(wr.region_rank);
  free(wr.region_order);
  if (w->spill) fclose(w->spill);
  free(w->runs);
  free(w->mem);
  free(w->locs);
  free(w->region_keys);
  rtg_u64map_free(&w->loc_index);
  rtg_u64map_free(&w->regions);
  free(w);
  return ok;
}

#endif

const cv_sink cv_otf2_sink = {
    .name = "otf2",
    .open = otf2_open,
    .event = otf2_event,
    .close = otf2_close,
};
