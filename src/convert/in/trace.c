/* Reading one input: a trace file's lines come classified from the common
 * trace reader (src/common/trace_reader.h, as rpt reads them) and become
 * events: rtg records, HCC_PROFILE=2 "profile:" lines, and the strace/
 * ltrace -tttT lines the original converter took.  A file that starts
 * with '{' or '[' is a Chrome JSON file to merge (json.c). */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "convert.h"
#include "dedup.h"
#include "hcc_profile.h"
#include "inrange.h"
#include "linereader.h"
#include "shared/memuse.h"
#include "trace_reader.h"
#include "xalloc.h"

/* The health of the trace of one process in a file: the records read
 * against what its summary counts (include/rtg/FORMAT.md). */
typedef struct health {
  uint32_t pid, summaries;
  bool header;
  uint64_t ops, calls; /* GPU op records (profile: lines too), API calls */
  uint64_t s_ops, s_calls, lost, lost_gpu, unfinished, write_errors, hip_missed_until;
} health;

typedef struct reader {
  cv_ctx *ctx;
  const char *path;
  rtg_diag_file df;
  uint32_t host;
  uint32_t last_pid, last_proc; /* cache of the last process lookup */
  bool have_last;
  cv_strace *strace;
  bool first_pass;     /* false in a second pass: no counts, no messages */
  rtg_u64map pid_host; /* pid -> host index + 1, from a prescan (see scan_head) */
  rtg_u64map dup_pids; /* pid -> 1 while its records repeat a trace read before */
  uint32_t ndup;       /* pids at 1 there: none, and no record needs a lookup */
  uint64_t dup_first;  /* line of the first duplicate, for the message */
  /* API calls, most lines of a big trace, reuse one event (handle_api) and
   * the device their agent value 0 names in their process, until an agent
   * is added */
  cv_event api;
  uint32_t api_dev_proc;
  rtg_device api_dev;
  bool api_dev_ok;
  /* the clock map of the last process whose times moved (hosts.c) */
  const rtg_clock_host *clock;
  uint32_t clock_proc;
  /* while hosts' times move, the map the prepare hook applied to the
   * file's lines (NULL: none) */
  const rtg_clock_host *prep_clock;
  /* the main pass: the processes of the file, by pid (index + 1 into
   * health) */
  bool check_health;
  rtg_u64map health_index;
  health *health;
  uint32_t nhealth;
  uint32_t health_last; /* index + 1 of the entry asked for last (most records are one pid's) */
  /* the file's KERNEL records: pid << 32 | kernel id -> index + 1 into
   * cv_ctx.kinfos (ids are per process image: per file) */
  rtg_u64map kinfo_index;
  char mpi_args[256]; /* an MPI event's args text, while it is dispatched */
  char mpi_ret[24];
} reader;

/* The health entry of pid (records may come before its header in a
 * reordered file); NULL outside the main pass. */
static health *health_of(reader *r, uint32_t pid) {
  if (!r->check_health) return NULL;
  if (r->health_last && r->health[r->health_last - 1].pid == pid)
    return &r->health[r->health_last - 1];
  uint64_t *v = rtg_u64map_put(&r->health_index, pid, 0, NULL);
  if (!v) rtg_out_of_memory("the trace summaries");
  if (!*v) {
    health *h = rtg_xrealloc(r->health, (r->nhealth + 1) * sizeof *h, "the trace summaries");
    r->health = h;
    r->health[r->nhealth] = (health){.pid = pid};
    *v = ++r->nhealth;
  }
  r->health_last = (uint32_t)*v;
  return &r->health[*v - 1];
}

/* Duplicates (the fingerprints are in src/common/dedup.c, shared with
 * rpt): when the same header comes again in a pass, the records of that pid
 * are skipped up to its next, different header, counted and warned about;
 * the same file (device and inode) given twice is skipped whole. */
void cv_pass_begin(cv_ctx *ctx) {
  rtg_u64map_free(&ctx->seen_files);
  rtg_u64map_free(&ctx->seen_headers);
  memset(&ctx->seen_files, 0, sizeof ctx->seen_files);
  memset(&ctx->seen_headers, 0, sizeof ctx->seen_headers);
}

/* true when this header was seen before in this pass */
static bool header_seen(cv_ctx *ctx, const rtg_record *rec) {
  return rtg_seen_header(&ctx->seen_headers, rtg_header_fingerprint(rec));
}

/* true when path is a regular file read before in this pass */
static bool file_seen(cv_ctx *ctx, const char *path) {
  return rtg_seen_file(&ctx->seen_files, path, 0, NULL);
}

/* Several hosts: the times of an event onto the common axis, by its
 * process's host (hosts.c).  One host: nothing moves. */
static uint64_t aligned(reader *r, uint32_t proc, uint64_t t) {
  cv_ctx *ctx = r->ctx;
  if (!r->clock || r->clock_proc != proc) {
    r->clock = cv_host_clock(ctx, ctx->procs[proc].host);
    r->clock_proc = proc;
  }
  return rtg_clockmap_apply(r->clock, ctx->clocks.lift_ns, t);
}

static inline void align(reader *r, cv_event *ev) {
  if (!r->ctx->clocks.moves) return;
  ev->start = aligned(r, ev->proc, ev->start);
  ev->end = aligned(r, ev->proc, ev->end);
  if (ev->tick) ev->tick = aligned(r, ev->proc, ev->tick);
  /* text made with another host's map (a process of another host in
   * the file) is not this event's: the sink makes it */
  if (ev->prep && r->prep_clock && r->clock != r->prep_clock) ev->prep = NULL;
}

static uint32_t host_of(reader *r, uint32_t pid) {
  uint64_t *h = r->pid_host.n ? rtg_u64map_get(&r->pid_host, pid) : NULL;
  if (h) return (uint32_t)(*h - 1);
  if (r->host == UINT32_MAX) r->host = cv_host(r->ctx, ""); /* no header line */
  return r->host;
}

static uint32_t proc_of(reader *r, uint32_t pid) {
  if (!r->have_last || r->last_pid != pid) {
    r->last_proc = cv_proc_get(r->ctx, host_of(r, pid), pid);
    r->last_pid = pid;
    r->have_last = true;
  }
  return r->last_proc;
}

/* (the index first: proc_of may move the table) */
static cv_proc *proc_ptr(reader *r, uint32_t pid) {
  uint32_t i = proc_of(r, pid);
  return &r->ctx->procs[i];
}

/* GPU and API records carry [start, stop]; a stop before its start (or
 * times of zero: the profiler was off) cannot be drawn. */
static bool times_ok(reader *r, uint64_t lineno, uint64_t start, uint64_t stop) {
  if (start && stop >= start) return true;
  r->ctx->counts[CVC_BAD_TIME]++;
  rtg_warn_line(&r->df, lineno, "%s (skipped)", !start ? "zero start time" : "stop before start");
  return false;
}

#define GET(rec, K, m) ((rec)->u.K.m)
#define HAS(rec, K, m) RTG_HAS(rec, RTG_FIELD(K, m))

/* The slice name of a barrier by its op: AMD barrier-value packets (HIP's
 * waits for copies) show as barriers of their own name. */
static const char *barrier_name(const char *op) {
  if (op && !strcmp(op, "or")) return "barrier-or";
  if (op && !strcmp(op, "value")) return "barrier-value";
  return "barrier";
}

/* -k names launch slices by kernel: HIP records carry the kernel's mangled
 * symbol, the GPU dispatch records of the same kernel its demangled name.
 * Names are matched by the mangled symbol (a kernel has one demangled
 * name; the map is as large as the number of kernels, where a map by
 * correlation id would grow with every launch), and only for mangled
 * names ("_Z..."): under RTG_KERNEL_RENAME the dispatch name is a ROCTx
 * range, shared by many kernels.  cv_read_input reads the dispatch records
 * of a file first (prescan_demangled), since a launch's HIP record usually
 * comes before its kernel completes; without a dispatch record of the
 * kernel, the mangled name stays. */
static void learn_demangled(cv_ctx *ctx, const char *mangled, const char *demangled) {
  if (strncmp(mangled, "_Z", 2)) return;
  uint64_t *v = rtg_u64map_put(&ctx->demangled, cv_intern(ctx, mangled), 0, NULL);
  if (v && !*v) *v = (uint64_t)cv_intern(ctx, demangled) + 1;
}

static const char *demangled_name(cv_ctx *ctx, const char *kernel) {
  if (strncmp(kernel, "_Z", 2) || !ctx->demangled.n) return kernel;
  const uint64_t *v = rtg_u64map_get(&ctx->demangled, cv_intern(ctx, kernel));
  return v && *v ? cv_str(ctx, (uint32_t)(*v - 1)) : kernel;
}

static void prescan_demangled(cv_ctx *ctx, const char *path) {
  rtg_linereader lr;
  if (!rtg_linereader_open(&lr, path)) return;
  char *line;
  size_t len;
  bool nul;
  rtg_record rec;
  const char *why;
  while ((line = rtg_linereader_next(&lr, &len, &nul))) {
    if (nul || len < 5 || memcmp(line, "HSA: ", 5) || !strstr(line, " demangled:'") ||
        rtg_record_parse(line, len, &rec, &why) != RTG_KIND_DISPATCH)
      continue;
    if (HAS(&rec, DISPATCH, demangled) && *GET(&rec, DISPATCH, demangled))
      learn_demangled(ctx, GET(&rec, DISPATCH, name), GET(&rec, DISPATCH, demangled));
  }
  rtg_linereader_close(&lr);
}

/* An AGENT record: the agents of its process name its devices. */
static void add_agent(reader *r, const rtg_record *rec) {
  r->api_dev_ok = false;
  cv_proc *p = proc_ptr(r, rec->pid);
  if (!rtg_agents_add(&p->agents, rec)) rtg_out_of_memory("the agents of a process");
}

static uint64_t kinfo_key(uint32_t pid, uint64_t id) {
  return (uint64_t)pid << 32 ^ id;
}

/* A KERNEL record: the kernel's resources, for its dispatches to point at. */
static void add_kernel(reader *r, const rtg_record *rec) {
  cv_ctx *ctx = r->ctx;
  cv_kinfo *k = rtg_xcalloc(1, sizeof *k, "the kernels' resources");
  const rtg_rec_KERNEL *K = &rec->u.KERNEL;
  k->id = K->id;
  k->proc = proc_of(r, rec->pid);
  k->name = cv_str(ctx, cv_intern(ctx, K->name));
  k->arch = HAS(rec, KERNEL, arch) ? cv_str(ctx, cv_intern(ctx, K->arch)) : NULL;
  k->has_regs = HAS(rec, KERNEL, arch_vgpr) && HAS(rec, KERNEL, accum_vgpr) &&
                HAS(rec, KERNEL, sgpr) && HAS(rec, KERNEL, wavefront);
  if (k->has_regs) {
    k->arch_vgpr = (uint32_t)K->arch_vgpr, k->accum_vgpr = (uint32_t)K->accum_vgpr;
    k->sgpr = (uint32_t)K->sgpr, k->wavefront = (uint32_t)K->wavefront;
  }
  k->has_lds = HAS(rec, KERNEL, lds), k->lds = K->lds;
  k->has_scratch = HAS(rec, KERNEL, scratch), k->scratch = K->scratch;
  k->has_kernarg = HAS(rec, KERNEL, kernarg), k->kernarg = K->kernarg;
  k->main_pass = ctx->pass == CV_PASS_MAIN;
  if (ctx->nkinfos == ctx->cap_kinfos) {
    ctx->cap_kinfos = ctx->cap_kinfos ? ctx->cap_kinfos * 2 : 64;
    ctx->kinfos =
        rtg_xrealloc(ctx->kinfos, ctx->cap_kinfos * sizeof *ctx->kinfos, "the kernels' resources");
  }
  k->index = ctx->nkinfos;
  ctx->kinfos[ctx->nkinfos++] = k;
  uint64_t *v = rtg_u64map_put(&r->kinfo_index, kinfo_key(rec->pid, K->id), 0, NULL);
  if (!v) rtg_out_of_memory("the kernels' resources");
  *v = ctx->nkinfos;
}

static const cv_kinfo *kernel_of(reader *r, uint32_t pid, uint64_t id) {
  if (!r->kinfo_index.n) return NULL;
  const uint64_t *v = rtg_u64map_get(&r->kinfo_index, kinfo_key(pid, id));
  return v ? r->ctx->kinfos[*v - 1] : NULL;
}

/* (a copy of it, not memset: compilers clear a struct this size with a
 * slow-starting `rep stos`, once per record) */
static const cv_event no_event;

/* The fields HIP and HSA calls share, from a record of kind K. */
#define API_FIELDS(ev, rec, K)                                                                     \
  do {                                                                                             \
    (ev)->name = GET(rec, K, func);                                                                \
    (ev)->ret = GET(rec, K, ret);                                                                  \
    (ev)->start = GET(rec, K, start);                                                              \
    (ev)->end = (ev)->start + GET(rec, K, dur);                                                    \
    (ev)->stack = HAS(rec, K, stack) ? GET(rec, K, stack) : 0;                                     \
  } while (0)

/* An API call.  Its event is the reader's own, with every field that an
 * API call has set again for each: the rest stays as no_event left it, and
 * is not copied per line. */
static void handle_api(reader *r, const rtg_line *l, const rtg_record *rec) {
  cv_ctx *ctx = r->ctx;
  cv_event *ev = &r->api;
  bool hip = rec->kind == RTG_KIND_HIP_API;
  ev->type = hip ? CV_HIP_API : CV_HSA_API;
  ev->tid = rec->tid;
  if (hip) {
    API_FIELDS(ev, rec, HIP_API);
    ev->has_corr = HAS(rec, HIP_API, corr);
    ev->corr = GET(rec, HIP_API, corr);
    ev->ancestor = HAS(rec, HIP_API, ancestor) ? GET(rec, HIP_API, ancestor) : 0;
    ev->args = HAS(rec, HIP_API, args) ? GET(rec, HIP_API, args) : NULL;
    ev->kernel = HAS(rec, HIP_API, kernel) ? GET(rec, HIP_API, kernel) : NULL;
    if (ev->kernel && ctx->opt.kernel_names) ev->kernel = demangled_name(ctx, ev->kernel);
  } else {
    API_FIELDS(ev, rec, HSA_API);
    /* an HSA call's own id is its cid (traces of earlier versions have
     * none); its corr is the call it was made in */
    ev->has_corr = HAS(rec, HSA_API, cid);
    ev->corr = GET(rec, HSA_API, cid);
    ev->ancestor = HAS(rec, HSA_API, corr) ? GET(rec, HSA_API, corr) : 0;
    ev->args = GET(rec, HSA_API, args);
    ev->kernel = NULL;
  }
  ev->polls = ev->busy = 0;
  if (!hip && HAS(rec, HSA_API, polls) && GET(rec, HSA_API, polls) > 1) {
    /* repeated calls: one event from the first start to the last end */
    uint64_t last = GET(rec, HSA_API, last), end = last + GET(rec, HSA_API, last_dur);
    if (!HAS(rec, HSA_API, last) || end < last || last < ev->start) {
      ctx->counts[CVC_BAD_TIME]++;
      rtg_warn_line(&r->df, l->lineno,
                    "repeated calls whose last one is not after the first (skipped)");
      return;
    }
    if (end > ev->end) ev->end = end;
    ev->polls = GET(rec, HSA_API, polls);
    ev->busy = HAS(rec, HSA_API, busy) ? GET(rec, HSA_API, busy) : ev->end - ev->start;
  }
  if (ev->end < ev->start) { /* duration overflow */
    ctx->counts[CVC_BAD_TIME]++;
    rtg_warn_line(&r->df, l->lineno, "duration overflows (skipped)");
    return;
  }
  ev->prep = l->prep, ev->prep_len = l->prep_len, ev->prep_mark = l->prep_mark;
  ev->proc = proc_of(r, rec->pid);
  ev->agent = 0;
  if (!r->api_dev_ok || r->api_dev_proc != ev->proc) {
    r->api_dev = rtg_agents_device(&ctx->procs[ev->proc].agents, 0);
    r->api_dev_proc = ev->proc;
    r->api_dev_ok = true;
  }
  ev->device = r->api_dev;
  align(r, ev);
  cv_dispatch(ctx, ev);
}

/* A record of a process of the file, counted as its summary counts them
 * (a record of repeated HSA calls counts each call). */
static void count_record(reader *r, const rtg_record *rec) {
  health *h;
  switch (rec->kind) {
  case RTG_KIND_DISPATCH:
  case RTG_KIND_BARRIER:
  case RTG_KIND_COPY:
    if ((h = health_of(r, rec->pid))) h->ops++;
    break;
  case RTG_KIND_HIP_API:
    if ((h = health_of(r, rec->pid))) h->calls++;
    break;
  case RTG_KIND_HSA_API:
    if ((h = health_of(r, rec->pid)))
      h->calls +=
          HAS(rec, HSA_API, polls) && GET(rec, HSA_API, polls) ? GET(rec, HSA_API, polls) : 1;
    break;
  default:
    break;
  }
}

/* Appends ", " (unless first) and the text to b[0..*n), cut to cap. */
static void addf(char *b, size_t cap, size_t *n, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void addf(char *b, size_t cap, size_t *n, const char *fmt, ...) {
  if (*n && *n + 2 < cap) b[(*n)++] = ',', b[(*n)++] = ' ';
  if (*n >= cap) return;
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(b + *n, cap - *n, fmt, ap);
  va_end(ap);
  *n = k < 0 ? *n : *n + (size_t)k < cap ? *n + (size_t)k : cap - 1;
}

/* One warning line for a file whose traces are not whole: no summary (the
 * process was killed), fewer records than the summary counts (a full
 * disk), records the tracer lost or could not write, GPU ops unfinished at
 * exit, HIP calls that went around the tracer.  Counted in
 * cv_ctx.unhealthy (--strict). */
static void health_report(reader *r) {
  char msg[2048];
  size_t n = 0;
  for (uint32_t i = 0; i < r->nhealth; i++) {
    const health *h = &r->health[i];
    if (!h->header && !h->summaries) continue; /* a legacy log: nothing to check */
    char p[1024];
    size_t m = 0;
    if (!h->summaries)
      addf(p, sizeof p, &m, "no summary record (the process was killed, or the file cut short)");
    if (h->summaries && (h->ops + h->lost_gpu < h->s_ops || h->calls + h->lost < h->s_calls))
      addf(p, sizeof p, &m,
           "its summary counts %llu GPU ops and %llu API calls, the file holds %llu and %llu "
           "(records are missing: a full disk? a file cut short?)",
           (unsigned long long)h->s_ops, (unsigned long long)h->s_calls, (unsigned long long)h->ops,
           (unsigned long long)h->calls);
    if (h->lost) addf(p, sizeof p, &m, "%llu records lost", (unsigned long long)h->lost);
    if (h->lost_gpu)
      addf(p, sizeof p, &m, "%llu GPU op records lost", (unsigned long long)h->lost_gpu);
    if (h->unfinished)
      addf(p, sizeof p, &m, "%llu GPU ops unfinished at exit", (unsigned long long)h->unfinished);
    if (h->write_errors)
      addf(p, sizeof p, &m, "%llu writes of the trace failed", (unsigned long long)h->write_errors);
    if (h->hip_missed_until)
      addf(p, sizeof p, &m, "HIP calls before %llu ns (CLOCK_BOOTTIME) went around the tracer",
           (unsigned long long)h->hip_missed_until);
    if (m) {
      size_t before = n;
      addf(msg, sizeof msg, &n, "pid %u: %s", h->pid, p);
      if (before && before < sizeof msg) msg[before] = ';'; /* processes apart by "; " */
    }
  }
  if (!n) return;
  r->ctx->unhealthy++;
  if (!r->ctx->opt.quiet) rtg_warning("%s: incomplete trace: %s", r->path, msg);
}

/* A memory record: kept for the outputs that draw or list them at their
 * end (shared/memuse.h), once (the main pass), inside the time window. */
static void handle_memory(reader *r, const rtg_record *rec, uint64_t lineno) {
  cv_ctx *ctx = r->ctx;
  if (ctx->pass != CV_PASS_MAIN) return;
  static const char *const ops[] = {"alloc", "free", "lock", "unlock"};
  static const char *const kinds[] = {"", "device", "host", "pinned", "managed"};
  const char *op = GET(rec, MEMORY, op);
  cv_mem_rec m = {0};
  m.op = 4;
  for (uint8_t i = 0; i < 4; i++)
    if (!strcmp(op, ops[i])) m.op = i;
  if (m.op == 4) {
    ctx->counts[CVC_BAD]++;
    rtg_warn_line(&r->df, lineno, "memory record of unknown op '%s' (skipped)", op);
    return;
  }
  if (!times_ok(r, lineno, GET(rec, MEMORY, start), GET(rec, MEMORY, stop))) return;
  if (HAS(rec, MEMORY, kind))
    for (uint8_t i = 1; i < 5; i++)
      if (!strcmp(GET(rec, MEMORY, kind), kinds[i])) m.kind = i;
  m.proc = proc_of(r, rec->pid);
  m.tid = rec->tid;
  m.start = GET(rec, MEMORY, start);
  m.end = GET(rec, MEMORY, stop);
  if (ctx->clocks.moves) {
    m.start = aligned(r, m.proc, m.start);
    m.end = aligned(r, m.proc, m.end);
  }
  if (m.start < ctx->window_start || m.start > ctx->window_end) return;
  m.addr = GET(rec, MEMORY, addr);
  m.size = GET(rec, MEMORY, size);
  m.has_agent = HAS(rec, MEMORY, agent);
  m.agent = (uint32_t)GET(rec, MEMORY, agent);
  if (m.has_agent) m.device = rtg_agents_device(&ctx->procs[m.proc].agents, m.agent);
  m.has_corr = HAS(rec, MEMORY, corr);
  m.corr = GET(rec, MEMORY, corr);
  m.vmem = HAS(rec, MEMORY, api) && !strncmp(GET(rec, MEMORY, api), "hsa_amd_vmem_handle_", 20);
  cv_mem_add(ctx, &m);
}

static void handle_record(reader *r, const rtg_line *l) {
  rtg_record *rec = (rtg_record *)&l->u.rec;
  uint64_t lineno = l->lineno;
  cv_ctx *ctx = r->ctx;
  if (rec->kind == RTG_KIND_HEADER) {
    bool dup = header_seen(ctx, rec);
    uint64_t *d = rtg_u64map_put(&r->dup_pids, rec->pid, 0, NULL);
    if (d && dup && !*d && r->first_pass)
      rtg_warn_line(&r->df, lineno,
                    "the trace of pid %u again (the same header as before: a file read twice or "
                    "concatenated?): its records are skipped up to its next header",
                    rec->pid);
    if (d && *d != dup) {
      if (dup)
        r->ndup++;
      else
        r->ndup--;
    }
    if (d) *d = dup;
  }
  if (r->ndup) {
    uint64_t *d = rtg_u64map_get(&r->dup_pids, rec->pid);
    if (d && *d) {
      if (r->first_pass) ctx->counts[CVC_DUPLICATE]++;
      return;
    }
  }
  if (r->check_health) count_record(r, rec);
  if (rec->kind == RTG_KIND_HIP_API || rec->kind == RTG_KIND_HSA_API) {
    handle_api(r, l, rec);
    return;
  }
  cv_event ev = no_event;
  uint64_t agent = 0; /* the agent value of a GPU op or host dispatch */
  ev.tid = rec->tid;
  switch (rec->kind) {
  case RTG_KIND_HEADER: {
    health *h = health_of(r, rec->pid);
    if (h) h->header = true;
    r->host = cv_host(ctx, GET(rec, HEADER, host));
    r->have_last = false;
    cv_proc *p = proc_ptr(r, rec->pid);
    if (HAS(rec, HEADER, exe)) p->exe = cv_intern(ctx, GET(rec, HEADER, exe));
    if (HAS(rec, HEADER, rank)) p->rank = cv_intern(ctx, GET(rec, HEADER, rank));
    uint64_t boot = GET(rec, HEADER, boot_ns);
    if (boot && ctx->clocks.moves) boot = aligned(r, proc_of(r, rec->pid), boot);
    if (HAS(rec, HEADER, boot_ns) && (!p->boot_ns || boot < p->boot_ns)) p->boot_ns = boot;
    if (HAS(rec, HEADER, boot_ns) && HAS(rec, HEADER, realtime_ns) && !ctx->have_clock_offset) {
      ctx->realtime_minus_boot =
          (int64_t)(GET(rec, HEADER, realtime_ns) - GET(rec, HEADER, boot_ns));
      ctx->have_clock_offset = true;
    }
    return;
  }
  case RTG_KIND_AGENT:
    add_agent(r, rec);
    return;
  case RTG_KIND_STACK:
  case RTG_KIND_SYMBOL:
    cv_take_stack_or_symbol(ctx, host_of(r, rec->pid), rec);
    return;
  case RTG_KIND_SUMMARY: {
    cv_proc *p = proc_ptr(r, rec->pid);
    if (!r->first_pass) return;
    p->lost += GET(rec, SUMMARY, lost);
    health *h = health_of(r, rec->pid);
    if (h) {
      h->summaries++;
      h->s_ops +=
          GET(rec, SUMMARY, dispatches) + GET(rec, SUMMARY, barriers) + GET(rec, SUMMARY, copies);
      h->s_calls += GET(rec, SUMMARY, hsa_calls) + GET(rec, SUMMARY, hip_calls);
      h->lost += GET(rec, SUMMARY, lost);
      h->lost_gpu += GET(rec, SUMMARY, lost_gpu);
      h->unfinished += GET(rec, SUMMARY, unfinished);
      h->write_errors += GET(rec, SUMMARY, write_errors);
      if (HAS(rec, SUMMARY, hip_missed_until))
        h->hip_missed_until = GET(rec, SUMMARY, hip_missed_until);
    }
    return;
  }
  case RTG_KIND_QUEUE:
    return;
  case RTG_KIND_KERNEL:
    add_kernel(r, rec);
    return;
  case RTG_KIND_MEMORY:
    handle_memory(r, rec, lineno);
    return;
  case RTG_KIND_DISPATCH_HOST:
    ev.type = CV_HOST_DISPATCH;
    ev.name = GET(rec, DISPATCH_HOST, name);
    ev.start = ev.end = GET(rec, DISPATCH_HOST, tick);
    ev.queue = GET(rec, DISPATCH_HOST, queue);
    agent = GET(rec, DISPATCH_HOST, agent);
    ev.id = GET(rec, DISPATCH_HOST, id);
    ev.has_dims = true;
    ev.wg = GET(rec, DISPATCH_HOST, workgroup);
    ev.grid = GET(rec, DISPATCH_HOST, grid);
    ev.has_corr = HAS(rec, DISPATCH_HOST, corr);
    ev.corr = GET(rec, DISPATCH_HOST, corr);
    break;
  case RTG_KIND_DISPATCH:
    if (!times_ok(r, lineno, GET(rec, DISPATCH, start), GET(rec, DISPATCH, stop))) return;
    ev.type = CV_KERNEL;
    ev.name = GET(rec, DISPATCH, name);
    if (HAS(rec, DISPATCH, demangled) && *GET(rec, DISPATCH, demangled)) {
      ev.mangled = ev.name;
      ev.name = GET(rec, DISPATCH, demangled);
      if (ctx->opt.kernel_names) learn_demangled(ctx, ev.mangled, ev.name);
    }
    ev.start = GET(rec, DISPATCH, start);
    ev.end = GET(rec, DISPATCH, stop);
    ev.queue = GET(rec, DISPATCH, queue);
    agent = GET(rec, DISPATCH, agent);
    ev.id = GET(rec, DISPATCH, id);
    ev.has_dims = HAS(rec, DISPATCH, workgroup) && HAS(rec, DISPATCH, grid);
    ev.wg = GET(rec, DISPATCH, workgroup);
    ev.grid = GET(rec, DISPATCH, grid);
    ev.lds = GET(rec, DISPATCH, lds);
    ev.scratch = GET(rec, DISPATCH, scratch);
    ev.has_lds = HAS(rec, DISPATCH, lds);
    ev.has_scratch = HAS(rec, DISPATCH, scratch);
    ev.has_corr = HAS(rec, DISPATCH, corr);
    ev.corr = GET(rec, DISPATCH, corr);
    ev.graph = (uint32_t)GET(rec, DISPATCH, graph);
    ev.node = (uint32_t)GET(rec, DISPATCH, node);
    ev.tick = GET(rec, DISPATCH, tick);
    ev.signal = GET(rec, DISPATCH, signal);
    ev.waiter = GET(rec, DISPATCH, waiter);
    if (HAS(rec, DISPATCH, kernel_id))
      ev.kinfo = kernel_of(r, rec->pid, GET(rec, DISPATCH, kernel_id));
    break;
  case RTG_KIND_BARRIER_HOST:
    ev.type = CV_HOST_BARRIER;
    ev.name = HAS(rec, BARRIER_HOST, op) && !strcmp(GET(rec, BARRIER_HOST, op), "value")
                  ? "barrier-value"
                  : "barrier";
    ev.start = ev.end = GET(rec, BARRIER_HOST, tick);
    ev.queue = GET(rec, BARRIER_HOST, queue);
    agent = GET(rec, BARRIER_HOST, agent);
    ev.id = GET(rec, BARRIER_HOST, id);
    break;
  case RTG_KIND_BARRIER:
    if (!times_ok(r, lineno, GET(rec, BARRIER, start), GET(rec, BARRIER, stop))) return;
    ev.type = CV_BARRIER;
    ev.name = barrier_name(HAS(rec, BARRIER, op) ? GET(rec, BARRIER, op) : NULL);
    ev.start = GET(rec, BARRIER, start);
    ev.end = GET(rec, BARRIER, stop);
    ev.queue = GET(rec, BARRIER, queue);
    agent = GET(rec, BARRIER, agent);
    ev.id = GET(rec, BARRIER, id);
    ev.has_corr = HAS(rec, BARRIER, corr);
    ev.corr = GET(rec, BARRIER, corr);
    ev.signal = GET(rec, BARRIER, signal);
    ev.waiter = GET(rec, BARRIER, waiter);
    ev.deps[0] = GET(rec, BARRIER, dep1), ev.deps[1] = GET(rec, BARRIER, dep2);
    ev.deps[2] = GET(rec, BARRIER, dep3), ev.deps[3] = GET(rec, BARRIER, dep4);
    ev.deps[4] = GET(rec, BARRIER, dep5);
    ev.has_deps = ev.deps[0] || ev.deps[1] || ev.deps[2] || ev.deps[3] || ev.deps[4];
    break;
  case RTG_KIND_COPY:
    if (!times_ok(r, lineno, GET(rec, COPY, start), GET(rec, COPY, stop))) return;
    ev.type = CV_COPY;
    ev.name = HAS(rec, COPY, kind) ? GET(rec, COPY, kind) : "copy";
    ev.start = GET(rec, COPY, start);
    ev.end = GET(rec, COPY, stop);
    agent = GET(rec, COPY, agent);
    ev.has_engine = HAS(rec, COPY, engine);
    ev.queue = GET(rec, COPY, engine);
    ev.has_bytes = HAS(rec, COPY, bytes);
    ev.bytes = GET(rec, COPY, bytes);
    ev.has_agents = HAS(rec, COPY, src_agent) && HAS(rec, COPY, dst_agent);
    ev.src_agent = (uint32_t)GET(rec, COPY, src_agent);
    ev.dst_agent = (uint32_t)GET(rec, COPY, dst_agent);
    ev.id = GET(rec, COPY, id);
    ev.args = HAS(rec, COPY, api) ? GET(rec, COPY, api) : NULL;
    ev.has_corr = HAS(rec, COPY, corr);
    ev.corr = GET(rec, COPY, corr);
    ev.graph = (uint32_t)GET(rec, COPY, graph);
    ev.node = (uint32_t)GET(rec, COPY, node);
    ev.tick = GET(rec, COPY, tick);
    ev.signal = GET(rec, COPY, signal);
    ev.waiter = GET(rec, COPY, waiter);
    ev.deps[0] = GET(rec, COPY, dep1), ev.deps[1] = GET(rec, COPY, dep2);
    ev.deps[2] = GET(rec, COPY, dep3), ev.deps[3] = GET(rec, COPY, dep4);
    ev.deps[4] = GET(rec, COPY, dep5);
    break;
  case RTG_KIND_MPI:
    ev.type = CV_MPI;
    ev.name = GET(rec, MPI, func);
    ev.start = GET(rec, MPI, start);
    ev.end = cv_mpi_end(rec); /* repeated tests: the last one's end */
    if (HAS(rec, MPI, polls) && GET(rec, MPI, polls) > 1) {
      ev.polls = GET(rec, MPI, polls);
      ev.busy = HAS(rec, MPI, busy) ? GET(rec, MPI, busy) : ev.end - ev.start;
    }
    if (ev.end < ev.start) {
      ctx->counts[CVC_BAD_TIME]++;
      rtg_warn_line(&r->df, lineno, "duration overflows (skipped)");
      return;
    }
    cv_mpi_args(rec, r->mpi_args, sizeof r->mpi_args);
    ev.args = r->mpi_args;
    if (HAS(rec, MPI, ret)) {
      snprintf(r->mpi_ret, sizeof r->mpi_ret, "%lld", (long long)GET(rec, MPI, ret));
      ev.ret = r->mpi_ret;
    }
    ev.has_bytes = HAS(rec, MPI, bytes);
    ev.bytes = GET(rec, MPI, bytes);
    break;
  case RTG_KIND_ROCTX: {
    const char *op = GET(rec, ROCTX, op);
    ev.name = HAS(rec, ROCTX, message) ? GET(rec, ROCTX, message) : "";
    ev.start = GET(rec, ROCTX, start);
    ev.end = GET(rec, ROCTX, stop);
    ev.depth = (uint32_t)GET(rec, ROCTX, depth);
    ev.id = GET(rec, ROCTX, id);
    ev.has_corr = HAS(rec, ROCTX, corr);
    ev.corr = GET(rec, ROCTX, corr);
    ev.ancestor = HAS(rec, ROCTX, ancestor) ? GET(rec, ROCTX, ancestor) : 0;
    if (!strcmp(op, "mark")) {
      ev.type = CV_MARK;
      ev.end = ev.start;
    } else {
      ev.type = CV_RANGE;
      if (!times_ok(r, lineno, ev.start, ev.end)) return;
    }
    ev.args = op;
    break;
  }
  default:
    return;
  }
  ev.prep = l->prep, ev.prep_len = l->prep_len, ev.prep_mark = l->prep_mark;
  ev.proc = proc_of(r, rec->pid);
  ev.agent = (uint32_t)agent;
  ev.device = rtg_agents_device(&ctx->procs[ev.proc].agents, agent);
  align(r, &ev);
  cv_dispatch(ctx, &ev);
}

/* An HCC_PROFILE=2 line: a GPU op of the process this file belongs to
 * (the pid of its records; 0 in a file of profile lines only). */
static void handle_hcc(reader *r, const rtg_hcc_profile *h, uint64_t lineno) {
  if (!(h->flags & RTG_HCC_HAS_TIMES)) return; /* nothing to draw */
  if (r->ndup && r->have_last) {
    uint64_t *d = rtg_u64map_get(&r->dup_pids, r->last_pid);
    if (d && *d) {
      if (r->first_pass) r->ctx->counts[CVC_DUPLICATE]++;
      return;
    }
  }
  health *hl = r->check_health && r->have_last ? health_of(r, r->last_pid) : NULL;
  if (hl) hl->ops++; /* under HCC_PROFILE=2 the tracer writes its GPU ops so */
  if (!times_ok(r, lineno, h->start, h->stop)) return;
  cv_event ev;
  memset(&ev, 0, sizeof ev);
  /* the strings point into the line: terminate the name in place */
  char *name = (char *)h->name;
  name[h->name_len] = 0;
  if (rtg_hcc_profile_is_copy(h)) {
    ev.type = CV_COPY;
    ev.has_bytes = (h->flags & RTG_HCC_HAS_BYTES) != 0;
    ev.bytes = h->bytes;
    ev.name = *name ? name : "copy";
  } else if (rtg_hcc_profile_type_is(h, "barrier")) {
    ev.type = CV_BARRIER;
    ev.name = "barrier";
  } else {
    ev.type = CV_KERNEL;
    ev.name = *name ? name : "kernel";
  }
  ev.start = h->start;
  ev.end = h->stop;
  ev.agent = h->device;
  ev.device = RTG_DEVICE(RTG_DEV_GPU, h->device); /* the GPU's number already */
  ev.queue = h->queue;
  ev.has_engine = ev.type == CV_COPY;
  ev.id = h->seq;
  ev.proc = proc_of(r, r->have_last ? r->last_pid : 0);
  align(r, &ev);
  cv_dispatch(r->ctx, &ev);
}

/* The host of a record comes from its process's header line, and the
 * device of a GPU op from its process's agent lines.  In a file written by
 * the tracer the header is the first line and the agent lines follow it,
 * but in a reordered file (sorted by time, shuffled, reversed) records come
 * before them, and would land in another process (host unknown) or name a
 * device before its agent is known: then the file is scanned for its
 * header and agent lines first.  A file that starts with a header is read
 * up to the end of its block of agent lines (traces written before the
 * tracer put them right after the header may have another thread's
 * records in between).  scan_head hands each header record and agent line
 * it meets so to its visitor (changing nothing else: any thread may scan). */
typedef struct head_visitor {
  void (*header)(void *arg, const rtg_record *rec);
  void (*agent)(void *arg, const char *line);
  void *arg;
} head_visitor;

static void scan_head(const char *path, const head_visitor *v) {
  if (!strcmp(path, "-")) return;
  rtg_linereader lr;
  if (!rtg_linereader_open(&lr, path)) return;
  char *line;
  size_t len;
  bool nul, first = true, in_order = false, seen_agent = false;
  rtg_record rec;
  const char *why;
  while ((line = rtg_linereader_next(&lr, &len, &nul))) {
    if (nul || !len) continue;
    bool rtg = len > 5 && !memcmp(line, "RTG: ", 5);
    bool header = rtg && strstr(line, " trace format:") &&
                  rtg_record_parse(line, len, &rec, &why) == RTG_KIND_HEADER;
    if (first && !header) {
      size_t i = 0;
      while (i < len && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) i++;
      if (i == len) continue; /* blank */
    }
    if (first && header) in_order = true;
    first = false;
    if (in_order && !header) { /* only the agent lines, up to the end of their block */
      bool agent = rtg && strstr(line, " agent index:");
      if (!agent && seen_agent) break;
      if (!agent) continue; /* another thread's record before them: look on */
      seen_agent = true;
    }
    if (header)
      v->header(v->arg, &rec);
    else if (rtg && strstr(line, " agent index:") && v->agent)
      v->agent(v->arg, line);
  }
  rtg_linereader_close(&lr);
}

/* What the caller's thread needs of a file before its first line (the
 * prescans), found without changing anything, so that a producer running
 * ahead can find it: the SYMBOL/STACK records of its tail (unless
 * skip_tail), its headers' pids and hosts and its agent lines in the
 * order the head scan meets them; and the host of its lines: that of its
 * first header, unless a header of another host follows (mixed). */
typedef struct pre_header {
  uint32_t pid;
  char *host;
} pre_header;

typedef struct file_pre {
  cv_tail tail;
  pre_header *headers;
  size_t nheaders;
  char **agents;
  size_t nagents;
  bool mixed, failed; /* failed: memory ran out (the file's lines get no text made ahead) */
  /* while hosts' times move: whether the prepare hook runs on its lines,
   * and with which map */
  bool on;
  const rtg_clock_host *clock;
} file_pre;

static void pre_header_seen(void *arg, const rtg_record *rec) {
  file_pre *p = arg;
  const char *host = GET(rec, HEADER, host);
  pre_header *h = realloc(p->headers, (p->nheaders + 1) * sizeof *h);
  char *name = strdup(host);
  if (!h || !name) {
    free(name);
    if (h) p->headers = h;
    p->failed = true;
    return;
  }
  p->headers = h;
  if (p->nheaders && strcmp(p->headers[0].host, host)) p->mixed = true;
  p->headers[p->nheaders++] = (pre_header){rec->pid, name};
}

static void pre_agent_seen(void *arg, const char *line) {
  file_pre *p = arg;
  char **na = realloc(p->agents, (p->nagents + 1) * sizeof *na);
  if (na) p->agents = na;
  if (na && (p->agents[p->nagents] = strdup(line))) p->nagents++;
}

static void pre_scan(file_pre *p, const char *path, bool tail) {
  if (tail) cv_tail_scan(path, &p->tail);
  scan_head(path, &(head_visitor){pre_header_seen, pre_agent_seen, p});
}

/* The prescans' findings taken by the caller's thread, in the order the
 * prescans made them before (the tail's host, symbols and stacks; each
 * header's host; the agents once every host is known); then freed. */
static void pre_apply(reader *r, file_pre *p, bool tail) {
  if (tail) cv_tail_apply(r->ctx, &p->tail);
  for (size_t i = 0; i < p->nheaders; i++) {
    uint64_t *v = rtg_u64map_put(&r->pid_host, p->headers[i].pid, 0, NULL);
    uint32_t host = cv_host(r->ctx, p->headers[i].host);
    if (v) *v = (uint64_t)host + 1;
    free(p->headers[i].host);
  }
  free(p->headers);
  p->headers = NULL;
  p->nheaders = 0;
  rtg_record rec;
  const char *why;
  for (size_t i = 0; i < p->nagents; i++) {
    if (rtg_record_parse(p->agents[i], strlen(p->agents[i]), &rec, &why) == RTG_KIND_AGENT)
      add_agent(r, &rec);
    free(p->agents[i]);
  }
  free(p->agents);
  p->agents = NULL;
  p->nagents = 0;
}

/* ------------------------------------------------------------ one reader for many files */

/* Trace files that follow one another among the inputs, read by one trace
 * reader.  Each file's prescans are made by whichever thread comes to the
 * file first (the producer that starts its first chunk, a producer's first
 * line of it, or the caller's start of it), under the file's lock, so
 * that they are mostly done before the caller needs them.  While hosts'
 * times move, a prepare hook that writes the lines' times
 * (cv_prepare.timed) applies the map of each file's host as the prescan
 * finds it; a file of no known host, or of several, gets no text made
 * ahead (the sink makes it, the same bytes). */
typedef struct group {
  cv_ctx *ctx;
  const char *const *paths;
  size_t n;
  bool tail; /* the prescans read the tails (not in the second pass) */
  cv_prepare hook;
  bool per_file; /* the hook runs on a file's lines only where its host is known */
  bool applied;  /* (ctx->prep_clock.applied) */
  file_pre *pre;
  unsigned char *done; /* per file: its prescans made (atomic) */
  pthread_mutex_t *mu; /* per file */
  const rtg_clock_host **clock;
} group;

static file_pre *group_pre(group *g, size_t f) {
  file_pre *p = &g->pre[f];
  if (__atomic_load_n(&g->done[f], __ATOMIC_ACQUIRE)) return p;
  pthread_mutex_lock(&g->mu[f]);
  if (!__atomic_load_n(&g->done[f], __ATOMIC_RELAXED)) {
    const char *path = g->paths[f];
    pre_scan(p, path, g->tail && strcmp(path, "-"));
    p->on = p->nheaders && !p->mixed && !p->failed;
    p->clock = p->on && g->per_file ? cv_host_clock_named(g->ctx, p->headers[0].host) : NULL;
    g->clock[f] = p->clock;
    __atomic_store_n(&g->done[f], 1, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&g->mu[f]);
  return p;
}

static void group_ahead(uint32_t file, void *arg) {
  group_pre(arg, file);
}

/* The hook on the reader's threads, where the file's host allows it. */
static size_t group_prepare(rtg_line *l, size_t used, rtg_line_space *space, void *arg) {
  group *g = arg;
  if (!group_pre(g, l->file)->on) return used;
  return g->hook.fn(l, used, space, g->hook.arg);
}

/* Progress on stderr while a big file is read: every 64 Ki lines. */
static void show_progress(const rtg_reader *rd, const char *path) {
  uint64_t done, size;
  rtg_reader_progress(rd, &done, &size);
  if (size) fprintf(stderr, "\rrtg-convert: %s: %3u%%", path, (unsigned)(done * 100 / size));
}

static bool blank(const char *s, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n') return false;
  return true;
}

/* A line that is not a record: an strace/ltrace call (true), or other
 * text. */
static bool text_line(reader *r, rtg_line *l, uint64_t *counts) {
  if (l->len && l->text[0] >= '0' && l->text[0] <= '9') {
    if (!r->strace) r->strace = cv_strace_new();
    cv_event ev;
    int sst =
        cv_strace_line(r->ctx, r->strace, proc_of(r, 0), l->text, l->len, &r->df, l->lineno, &ev);
    if (sst >= 0) {
      counts[CVC_STRACE]++;
      if (sst) cv_dispatch(r->ctx, &ev);
      return true;
    }
  }
  counts[CVC_FOREIGN]++;
  return false;
}

/* The end of the file: what could not be read. */
static bool file_end(reader *r, const rtg_line *end, uint64_t lines, uint64_t *counts) {
  cv_ctx *ctx = r->ctx;
  counts[CVC_TOO_LONG] += end->u.end.too_long;
  if (end->u.end.too_long)
    rtg_warn_line(&r->df, end->lineno, "%llu lines longer than %u bytes skipped",
                  (unsigned long long)end->u.end.too_long, RTG_LINE_MAX);
  int err = end->u.end.err;
  if (err && r->first_pass)
    rtg_error("cannot %s input: path=%s: %s", end->u.end.not_opened ? "open" : "read", r->path,
              err == RTG_READ_SHRANK ? "the file shrank while it was read" : strerror(err));
  if (!err && lines == 0 && r->first_pass && !ctx->opt.quiet)
    rtg_warning("%s: empty file", r->path);
  return !err;
}

/* One file of a group, as the caller's thread reads it. */
typedef struct file_read {
  reader r;
  bool progress;
  /* lines that are trace lines (records, profile: and strace lines), and
   * other lines that are not blank */
  uint64_t trace_lines, other_lines, lines;
  bool ok;
} file_read;

/* The caller's start of file f of the group: what it needs before the
 * file's first line. */
static void file_begin(group *g, size_t f, file_read *fr) {
  cv_ctx *ctx = g->ctx;
  const char *path = g->paths[f];
  bool count = ctx->pass != CV_PASS_SECOND, stream = !strcmp(path, "-");
  file_pre *p = group_pre(g, f);
  if (count && !stream) cv_tail_apply(ctx, &p->tail); /* symbols are written at process end */
  if (count && !stream && ctx->opt.kernel_names && ctx->pass == CV_PASS_MAIN)
    prescan_demangled(ctx, path);
  /* the size decides whether to show progress */
  struct stat st;
  bool big = !stream && stat(path, &st) == 0 && st.st_size > (256 << 20);
  *fr = (file_read){.r = {.ctx = ctx, .path = path, .df = {path, 0}, .api = no_event}, .ok = true};
  fr->progress = count && (ctx->opt.progress_set ? ctx->opt.progress : isatty(2) && big);
  reader *r = &fr->r;
  r->host = UINT32_MAX;
  r->first_pass = count;
  r->check_health = ctx->pass == CV_PASS_MAIN;
  pre_apply(r, p, false);
  if (g->per_file && p->on) r->prep_clock = p->clock;
}

/* The caller's end of a file: what the file's records tell. */
static bool file_finish(cv_ctx *ctx, file_read *fr) {
  reader *r = &fr->r;
  if (r->check_health && fr->ok) {
    if (!fr->trace_lines && fr->other_lines) {
      ctx->not_traces++;
      rtg_error("%s: not a trace: no rtg record, HCC_PROFILE=2 line or strace line in its %llu "
                "lines (rtg-convert reads the rtg_trace.txt.<pid> files the tracer writes)",
                r->path, (unsigned long long)fr->other_lines);
    } else {
      health_report(r);
    }
  }
  free(r->health);
  rtg_u64map_free(&r->health_index);
  rtg_u64map_free(&r->kinfo_index);
  if (fr->progress) fprintf(stderr, "\rrtg-convert: %s: 100%%\n", r->path);
  cv_strace_free(r->strace);
  rtg_u64map_free(&r->pid_host);
  rtg_u64map_free(&r->dup_pids);
  return fr->ok;
}

static void file_line(file_read *fr, rtg_line *l, uint64_t *counts) {
  reader *r = &fr->r;
  if (l->nul) {
    fr->other_lines++;
    counts[CVC_BINARY]++;
    rtg_warn_line(&r->df, l->lineno, "binary data (skipped)");
    return;
  }
  switch (l->cls) {
  case RTG_LINE_CUT:
    /* every record ends with '\n': without it, the file was cut while
     * the record was written, and what is there may parse as a record
     * with a wrong value (a duration cut short) */
    fr->other_lines++;
    counts[CVC_TRUNCATED]++;
    rtg_warn_line(&r->df, l->lineno, "last line cut off (no newline): a partial record (skipped)");
    break;
  case RTG_LINE_RECORD:
    fr->trace_lines++;
    counts[l->kind - 1 + CVC_HEADER]++;
    handle_record(r, l);
    break;
  case RTG_LINE_BAD:
    fr->other_lines++;
    counts[CVC_BAD]++;
    rtg_warn_line(&r->df, l->lineno, "%s (skipped)", l->why);
    break;
  case RTG_LINE_PROFILE:
    fr->trace_lines++;
    counts[CVC_HCC]++;
    handle_hcc(r, &l->u.hcc, l->lineno);
    break;
  default:
    if (text_line(r, l, counts))
      fr->trace_lines++;
    else
      fr->other_lines += !blank(l->text, l->len);
  }
}

/* Files this process may still open: its limit less those open now
 * (-1: unknown). */
static long fds_free(void) {
  struct rlimit rl;
  if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) return -1;
  DIR *d = opendir("/proc/self/fd");
  if (!d) return errno == EMFILE || errno == ENFILE ? 0 : -1; /* (none left for it) */
  long open_now = -1;                                         /* (less the directory's own) */
  while (readdir(d)) open_now++;
  closedir(d);
  open_now -= 2; /* "." and ".." */
  long left = (long)rl.rlim_cur - open_now;
  return left > 0 ? left : 0; /* (descriptors above a lowered limit stay open) */
}

/* The producers of a reader of several files: one per CPU up to 8 (the
 * files' starts, opens, first windows and prescans overlap the caller's
 * work on the files before), or RTG_READER_THREADS; and no more than the
 * files left to open allow: a producer holds two at most (the chunk it
 * reads, a prescan), the caller one (a prescan), a few stay for the
 * outputs.  Too few for one producer: none (*serial), the caller reads
 * each chunk itself and makes each prescan when it comes to the file, one
 * input open at a time. */
static unsigned group_threads(size_t n, bool *serial) {
  *serial = false;
  if (n < 2) return 0;
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  long want = cpus < 1 ? 1 : cpus > 8 ? 8 : cpus;
  const char *env = getenv("RTG_READER_THREADS"); /* (measurements, tests) */
  if (env && atol(env) > 0) want = atol(env);
  long fds = fds_free();
  if (fds >= 0 && want > (fds - 5) / 2) want = (fds - 5) / 2;
  *serial = want < 1;
  return want < 1 ? 1 : (unsigned)want;
}

/* Trace files paths[0..n) in their order, through one reader. */
static bool read_group(cv_ctx *ctx, const char *const *paths, size_t n) {
  bool count = ctx->pass != CV_PASS_SECOND;
  group g = {.ctx = ctx, .paths = paths, .n = n, .tail = count};
  bool serial;
  g.pre = rtg_xcalloc(n, sizeof *g.pre, "the trace reader");
  g.done = rtg_xcalloc(n, sizeof *g.done, "the trace reader");
  g.mu = rtg_xcalloc(n, sizeof *g.mu, "the trace reader");
  g.clock = rtg_xcalloc(n, sizeof *g.clock, "the trace reader");
  for (size_t i = 0; i < n; i++) pthread_mutex_init(&g.mu[i], NULL);
  rtg_reader_opts ro = {.paths = paths,
                        .npaths = n,
                        .parse = RTG_PARSE_ALL,
                        .text_lines = true,
                        .threads = group_threads(n, &serial),
                        .file_ahead = group_ahead,
                        .file_ahead_arg = &g};
  ro.serial = serial;
  bool prepare = ctx->pass == CV_PASS_MAIN && ctx->prepare_sink; /* a sink's work on the lines */
  if (prepare && ctx->prepare.timed && ctx->clocks.moves) {
    /* the lines' times move by the map of their host: known for a file
     * whose headers (as far as the prescan sees) name one host */
    prepare = ctx->prep_clock.applied;
    g.per_file = prepare;
  }
  if (prepare) {
    g.hook = ctx->prepare;
    ro.prepare = g.per_file ? group_prepare : ctx->prepare.fn;
    ro.prepare_arg = g.per_file ? (void *)&g : ctx->prepare.arg;
    ro.prepare_scale = ctx->prepare.scale;
  }
  ctx->prep_clock.files = g.per_file ? g.clock : NULL;
  ctx->prep_clock.lift_ns = ctx->clocks.lift_ns;
  rtg_reader *rd = rtg_reader_open(&ro);
  if (!rd) rtg_out_of_memory("the trace reader");
  uint64_t *counts = count ? ctx->counts : (uint64_t[CVC_COUNT]){0};
  bool ok = true;
  size_t f = 0;
  file_read fr;
  file_begin(&g, f, &fr);
  rtg_line *l;
  while (f < n && (l = rtg_reader_next(rd))) {
    if (l->cls == RTG_LINE_END) {
      fr.other_lines += l->u.end.too_long;
      fr.ok = file_end(&fr.r, l, fr.lines, counts);
      if (!file_finish(ctx, &fr)) ok = false;
      if (++f < n) file_begin(&g, f, &fr);
      continue;
    }
    if (++fr.lines % 65536 == 0 && fr.progress) show_progress(rd, fr.r.path);
    file_line(&fr, l, counts);
  }
  if (f < n && !file_finish(ctx, &fr)) ok = false; /* (the reader stopped early) */
  rtg_reader_close(rd);
  ctx->prep_clock.files = NULL;
  for (size_t i = 0; i < n; i++) { /* (what the caller did not take) */
    file_pre *p = &g.pre[i];
    cv_tail_free(&p->tail);
    for (size_t k = 0; k < p->nheaders; k++) free(p->headers[k].host);
    for (size_t k = 0; k < p->nagents; k++) free(p->agents[k]);
    free(p->headers);
    free(p->agents);
    pthread_mutex_destroy(&g.mu[i]);
  }
  free(g.pre);
  free(g.done);
  free(g.mu);
  free(g.clock);
  return ok;
}

/* A file that begins with '{' or '[' (after blanks) is Chrome JSON. */
static bool looks_like_json(const char *path) {
  if (rtg_inrange_find(path)) return false; /* (a part holds traces only) */
  FILE *f = fopen(path, "rb");
  if (!f) return false;
  int c;
  while ((c = fgetc(f)) == ' ' || c == '\n' || c == '\r' || c == '\t') {
  }
  fclose(f);
  return c == '{' || c == '[';
}

bool cv_read_inputs_of(cv_ctx *ctx, const char *const *paths, int n) {
  bool ok = true;
  int from = 0; /* the trace files paths[from..i) wait for their reader */
  for (int i = 0; i <= n; i++) {
    const char *path = i < n ? paths[i] : NULL;
    bool stream = path && !strcmp(path, "-");
    bool seen = path && file_seen(ctx, path);
    bool json = path && !seen && !stream && looks_like_json(path);
    if (path && !seen && !json && !stream) continue;
    /* a JSON file, stdin, a file given twice, or the end: the files before
     * first, in their order */
    if (i > from && !read_group(ctx, paths + from, (size_t)(i - from))) ok = false;
    from = i + 1;
    if (!path) break;
    if (seen)
      rtg_warning("%s: the same file as an earlier input (skipped)", path);
    else if (json)
      ok &= ctx->pass == CV_PASS_SECOND || cv_read_json(ctx, path); /* (no host calls in it) */
    else if (ctx->pass != CV_PASS_SECOND) /* stdin: read once, in the main pass */
      ok &= read_group(ctx, paths + i, 1);
  }
  return ok;
}

bool cv_read_input(cv_ctx *ctx, const char *path) {
  return cv_read_inputs_of(ctx, &path, 1);
}
