/* MPI calls across ranks.  Before the first pass, the files whose
 * summaries count MPI calls are read once for them (and, for --analyze,
 * for their GPU ops' busy time): each call's process, communicator,
 * collective number and times on its host's boot clock.
 *
 * The hosts' offsets (cv_mpi_refine): a collective instance (one
 * communicator, one number) ends on no rank before every rank entered it,
 * for MPI_Barrier, MPI_Allreduce, MPI_Allgather, MPI_Alltoall and
 * MPI_Reduce_scatter_block, whose every rank's result needs every rank's
 * part.  So for a host h against the reference r, the shift s
 * (r's boot time minus h's of one instant) satisfies, per instance,
 *   max enter on r - min exit on h  <=  s  <=  min exit on r - max enter on h
 * and the largest lower bound and smallest upper bound over the instances
 * bound it (rtg_clockmap_bound decides what replaces what).
 *
 * Stragglers (cv_mpi_text/json, after alignment): per blocking collective
 * instance, the rank that entered last, and how long the others waited
 * for it (its entry minus theirs, summed); per rank, the time in blocking
 * MPI calls (every call but the non-blocking starts and MPI_Test*), the
 * GPU's busy time (its kernels', barriers' and copies' union, taken in
 * record order) and the rest of its run (host work). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "convert.h"
#include "linereader.h"
#include "xalloc.h"
#include "jsonw.h"

#define XCALLOC(n, size) rtg_xcalloc(n, size, "the MPI calls")
#define XREALLOC(p, size) rtg_xrealloc(p, size, "the MPI calls")
#define XSTRDUP(s) rtg_xstrdup(s, "the MPI calls")

typedef struct mproc {
  uint32_t host; /* index into cv_mpi.hosts */
  uint32_t pid;
  int64_t rank;         /* world rank: the header's rank:, else a world communicator's */
  uint64_t first, last; /* its run: the header's and the summary's boot times, raw */
  uint64_t mpi_ns;      /* in blocking MPI calls */
  uint64_t gpu_ns, gpu_end;
  uint64_t last_arrivals, caused_wait_ns, waited_ns;
  uint64_t shift; /* its host's map, applied (cv_mpi_text) */
} mproc;

typedef struct mcall {
  uint32_t proc, comm, func; /* func: index into cv_mpi.names */
  uint64_t seq, start, end;  /* raw boot ns */
  bool sync;                 /* every rank's exit needs every rank's entry: bounds the offsets */
} mcall;

typedef struct cv_mpi {
  mproc *procs;
  uint32_t nprocs, capp;
  mcall *calls; /* blocking collectives */
  size_t ncalls, capc;
  char **names; /* hosts then communicators, by kind */
  uint32_t nnames, capn;
  uint32_t *host_names; /* host index -> names index */
  uint32_t nhosts, caph;
  uint64_t records;
  bool gpu;
  bool analyzed;
  /* stragglers */
  uint64_t instances;
  uint64_t span_ns;
  /* the verdict: the function whose instances one rank enters last most
   * often, weighed by the others' wait for it (see verdict) */
  uint32_t v_proc, v_func;
  uint64_t v_last, v_of, v_wait;
} cv_mpi;

static cv_mpi *state(cv_ctx *ctx) {
  if (!ctx->mpi) ctx->mpi = XCALLOC(1, sizeof(cv_mpi));
  return ctx->mpi;
}

static uint32_t name_id(cv_mpi *m, const char *s) {
  for (uint32_t i = 0; i < m->nnames; i++)
    if (!strcmp(m->names[i], s)) return i;
  if (m->nnames == m->capn) {
    m->capn = m->capn ? 2 * m->capn : 16;
    m->names = XREALLOC(m->names, m->capn * sizeof *m->names);
  }
  m->names[m->nnames] = XSTRDUP(s);
  return m->nnames++;
}

static uint32_t host_id(cv_mpi *m, const char *name) {
  uint32_t n = name_id(m, name);
  for (uint32_t i = 0; i < m->nhosts; i++)
    if (m->host_names[i] == n) return i;
  if (m->nhosts == m->caph) {
    m->caph = m->caph ? 2 * m->caph : 8;
    m->host_names = XREALLOC(m->host_names, m->caph * sizeof *m->host_names);
  }
  m->host_names[m->nhosts] = n;
  return m->nhosts++;
}

static uint32_t proc_id(cv_mpi *m, uint32_t host, uint32_t pid) {
  for (uint32_t i = m->nprocs; i-- > 0;)
    if (m->procs[i].host == host && m->procs[i].pid == pid) return i;
  if (m->nprocs == m->capp) {
    m->capp = m->capp ? 2 * m->capp : 16;
    m->procs = XREALLOC(m->procs, m->capp * sizeof *m->procs);
  }
  m->procs[m->nprocs] = (mproc){.host = host, .pid = pid, .rank = -1};
  return m->nprocs++;
}

static bool blocking(const char *f) {
  if (!strncmp(f, "MPI_I", 5) || !strncmp(f, "MPI_Test", 8)) return false;
  return true;
}

static bool collective(const rtg_record *rec) {
  return RTG_HAS(rec, RTG_FIELD(MPI, seq)) && RTG_HAS(rec, RTG_FIELD(MPI, comm)) &&
         blocking(rec->u.MPI.func);
}

uint64_t cv_mpi_end(const rtg_record *rec) {
  const rtg_rec_MPI *c = &rec->u.MPI;
  uint64_t end = c->start + c->dur;
  if (end < c->start) return end; /* (overflow: the caller skips it) */
  if (RTG_HAS(rec, RTG_FIELD(MPI, polls)) && c->polls > 1 && RTG_HAS(rec, RTG_FIELD(MPI, last))) {
    uint64_t last = c->last + c->last_dur;
    if (last >= c->last && last > end) end = last;
  }
  return end;
}

void cv_mpi_args(const rtg_record *rec, char *buf, size_t cap) {
  const rtg_rec_MPI *c = &rec->u.MPI;
  size_t n = 0;
  buf[0] = 0;
#define ADD(...)                                                                                   \
  do {                                                                                             \
    if (n < cap) {                                                                                 \
      int k = snprintf(buf + n, cap - n, __VA_ARGS__);                                             \
      n = k < 0 ? n : n + (size_t)k < cap ? n + (size_t)k : cap - 1;                               \
    }                                                                                              \
  } while (0)
#define H(f) RTG_HAS(rec, RTG_FIELD(MPI, f))
  if (H(comm)) ADD("%scomm:%s", n ? " " : "", c->comm);
  if (H(seq)) ADD("%sseq:%" PRIu64, n ? " " : "", c->seq);
  if (H(size)) ADD("%ssize:%" PRIu64, n ? " " : "", c->size);
  if (H(rank)) ADD("%srank:%" PRIu64, n ? " " : "", c->rank);
  if (H(peer)) ADD("%speer:%" PRId64, n ? " " : "", c->peer);
  if (H(root)) ADD("%sroot:%" PRId64, n ? " " : "", c->root);
  if (H(bytes)) ADD("%sbytes:%" PRIu64, n ? " " : "", c->bytes);
  if (H(req)) ADD("%sreq:%" PRIu64, n ? " " : "", c->req);
  if (H(nreq)) ADD("%snreq:%" PRIu64, n ? " " : "", c->nreq);
  if (H(done)) ADD("%sdone:%" PRIu64, n ? " " : "", c->done);
  if (H(polls)) ADD("%spolls:%" PRIu64, n ? " " : "", c->polls);
  if (H(busy)) ADD("%sbusy:%" PRIu64, n ? " " : "", c->busy);
#undef H
#undef ADD
}

/* A GPU op of proc: its busy time, as a union in record order. */
static void gpu_busy(mproc *p, uint64_t start, uint64_t stop) {
  if (stop <= start) return;
  if (start < p->gpu_end) start = p->gpu_end;
  if (stop > start) p->gpu_ns += stop - start;
  if (stop > p->gpu_end) p->gpu_end = stop;
}

static void read_file(cv_mpi *m, const char *path) {
  rtg_linereader lr;
  if (!rtg_linereader_open(&lr, path)) return; /* (the pass says why) */
  char *line;
  size_t len;
  bool nul;
  rtg_record rec;
  uint32_t host = UINT32_MAX, last_pid = 0, proc = 0;
  bool have = false;
  while ((line = rtg_linereader_next(&lr, &len, &nul))) {
    if (nul || len < 8) continue;
    char c0 = line[0];
    if (c0 == 'H') {
      if (!m->gpu || memcmp(line, "HSA: ", 5) ||
          (!strstr(line, " dispatch ") && !strstr(line, " copy ") && !strstr(line, " barrier ")))
        continue;
    } else if (c0 != 'M' && c0 != 'R') {
      continue;
    }
    enum rtg_kind k = rtg_record_parse(line, len, &rec, NULL);
    if (k == RTG_KIND_HEADER) {
      host = host_id(m, rec.u.HEADER.host);
      have = false;
    }
    if (k == RTG_KIND_NONE || host == UINT32_MAX) continue;
    if (!have || rec.pid != last_pid) proc = proc_id(m, host, rec.pid), last_pid = rec.pid;
    have = true;
    mproc *p = &m->procs[proc];
    switch (k) {
    case RTG_KIND_HEADER:
      if (RTG_HAS(&rec, RTG_FIELD(HEADER, boot_ns))) p->first = rec.u.HEADER.boot_ns;
      if (RTG_HAS(&rec, RTG_FIELD(HEADER, rank))) {
        char *e;
        long long r = strtoll(rec.u.HEADER.rank, &e, 10);
        if (!*e && r >= 0) p->rank = r;
      }
      break;
    case RTG_KIND_SUMMARY:
      if (RTG_HAS(&rec, RTG_FIELD(SUMMARY, boot_ns))) p->last = rec.u.SUMMARY.boot_ns;
      break;
    case RTG_KIND_DISPATCH:
      gpu_busy(p, rec.u.DISPATCH.start, rec.u.DISPATCH.stop);
      break;
    case RTG_KIND_BARRIER:
      gpu_busy(p, rec.u.BARRIER.start, rec.u.BARRIER.stop);
      break;
    case RTG_KIND_COPY:
      gpu_busy(p, rec.u.COPY.start, rec.u.COPY.stop);
      break;
    case RTG_KIND_MPI: {
      const rtg_rec_MPI *c = &rec.u.MPI;
      uint64_t end = cv_mpi_end(&rec);
      if (end < c->start) break;
      m->records++;
      if (blocking(c->func)) p->mpi_ns += c->dur;
      if (!p->first || c->start < p->first) p->first = c->start;
      if (end > p->last) p->last = end;
      if (p->rank < 0 && RTG_HAS(&rec, RTG_FIELD(MPI, comm)) && !strncmp(c->comm, "0.", 2) &&
          RTG_HAS(&rec, RTG_FIELD(MPI, rank)))
        p->rank = (int64_t)c->rank; /* (a communicator led by world rank 0) */
      if (!collective(&rec)) break;
      if (m->ncalls == m->capc) {
        m->capc = m->capc ? 2 * m->capc : 1024;
        m->calls = XREALLOC(m->calls, m->capc * sizeof *m->calls);
      }
      bool sync = !strcmp(c->func, "MPI_Barrier") || !strcmp(c->func, "MPI_Allreduce") ||
                  !strcmp(c->func, "MPI_Allgather") || !strcmp(c->func, "MPI_Alltoall") ||
                  !strcmp(c->func, "MPI_Reduce_scatter_block");
      m->calls[m->ncalls++] =
          (mcall){proc, name_id(m, c->comm), name_id(m, c->func), c->seq, c->start, end, sync};
      break;
    }
    default:
      break;
    }
  }
  rtg_linereader_close(&lr);
}

void cv_mpi_read(cv_ctx *ctx, const char *const *paths, int n, bool gpu_too) {
  if (!n) return;
  cv_mpi *m = state(ctx);
  m->gpu = gpu_too;
  for (int i = 0; i < n; i++) read_file(m, paths[i]);
}

static int by_instance(const void *a, const void *b) {
  const mcall *x = a, *y = b;
  if (x->comm != y->comm) return x->comm < y->comm ? -1 : 1;
  if (x->seq != y->seq) return x->seq < y->seq ? -1 : 1;
  return x->proc < y->proc ? -1 : x->proc > y->proc;
}

/* The clock map's index of host h of ours, or UINT32_MAX. */
static uint32_t map_host(const cv_ctx *ctx, const cv_mpi *m, uint32_t h) {
  const char *name = m->names[m->host_names[h]];
  for (uint32_t i = 0; i < ctx->clocks.nhosts; i++)
    if (!strcmp(ctx->clocks.hosts[i].name, name)) return i;
  return UINT32_MAX;
}

void cv_mpi_refine(cv_ctx *ctx) {
  cv_mpi *m = ctx->mpi;
  rtg_clockmap *cm = &ctx->clocks;
  if (!m || !m->ncalls || cm->ref == UINT32_MAX || m->nhosts < 2) return;
  qsort(m->calls, m->ncalls, sizeof *m->calls, by_instance);
  uint32_t nh = m->nhosts, *mh = XCALLOC(nh, sizeof *mh), ref = UINT32_MAX;
  for (uint32_t h = 0; h < nh; h++)
    if ((mh[h] = map_host(ctx, m, h)) == cm->ref) ref = h;
  if (ref == UINT32_MAX) {
    free(mh);
    return;
  }
  /* per host of ours, in one instance: latest entry, earliest exit */
  uint64_t *enter = XCALLOC(nh, sizeof *enter), *leave = XCALLOC(nh, sizeof *leave);
  int64_t *lo = XCALLOC(nh, sizeof *lo), *hi = XCALLOC(nh, sizeof *hi);
  uint64_t *cnt = XCALLOC(nh, sizeof *cnt);
  bool *in = XCALLOC(nh, sizeof *in);
  for (uint32_t h = 0; h < nh; h++) lo[h] = INT64_MIN, hi[h] = INT64_MAX;
  for (size_t i = 0; i < m->ncalls;) {
    size_t j = i;
    while (j < m->ncalls && m->calls[j].comm == m->calls[i].comm &&
           m->calls[j].seq == m->calls[i].seq)
      j++;
    if (m->calls[i].sync) {
      memset(in, 0, nh * sizeof *in);
      for (size_t k = i; k < j; k++) {
        const mcall *c = &m->calls[k];
        uint32_t h = m->procs[c->proc].host;
        if (!in[h] || c->start > enter[h]) enter[h] = c->start;
        if (!in[h] || c->end < leave[h]) leave[h] = c->end;
        in[h] = true;
      }
      if (in[ref])
        for (uint32_t h = 0; h < nh; h++) {
          if (h == ref || !in[h]) continue;
          int64_t l = (int64_t)(enter[ref] - leave[h]), u = (int64_t)(leave[ref] - enter[h]);
          if (l > lo[h]) lo[h] = l;
          if (u < hi[h]) hi[h] = u;
          cnt[h]++;
        }
    }
    i = j;
  }
  for (uint32_t h = 0; h < nh; h++)
    if (h != ref && cnt[h] && mh[h] != UINT32_MAX)
      rtg_clockmap_bound(cm, mh[h], lo[h], hi[h], cnt[h]);
  free(mh), free(enter), free(leave), free(lo), free(hi), free(cnt), free(in);
}

/* ------------------------------------------------------------ stragglers */

static void analyze(cv_ctx *ctx, cv_mpi *m) {
  if (m->analyzed) return;
  m->analyzed = true;
  /* each process's times on the common axis: its host's map */
  uint32_t *mh = XCALLOC(m->nhosts ? m->nhosts : 1, sizeof *mh);
  for (uint32_t h = 0; h < m->nhosts; h++) mh[h] = map_host(ctx, m, h);
  uint64_t lo = UINT64_MAX, hi = 0;
  for (uint32_t i = 0; i < m->nprocs; i++) {
    mproc *p = &m->procs[i];
    uint32_t k = mh[p->host];
    bool moves = ctx->clocks.moves && k != UINT32_MAX;
    uint64_t a =
        moves ? rtg_clockmap_apply(&ctx->clocks.hosts[k], ctx->clocks.lift_ns, p->first) : p->first;
    p->shift = a - p->first;
    if (p->first && a < lo) lo = a;
    if (p->last && p->last + p->shift > hi) hi = p->last + p->shift;
  }
  m->span_ns = hi > lo ? hi - lo : 0;
  if (m->ncalls) qsort(m->calls, m->ncalls, sizeof *m->calls, by_instance);
  /* per (process, function): instances entered last, and the others' wait */
  uint32_t nn = m->nnames;
  uint64_t *last_n = XCALLOC((size_t)m->nprocs * nn + 1, sizeof *last_n);
  uint64_t *wait_n = XCALLOC((size_t)m->nprocs * nn + 1, sizeof *wait_n);
  uint64_t *of_func = XCALLOC(nn + 1, sizeof *of_func);
  for (size_t i = 0; i < m->ncalls;) {
    size_t j = i, last = i;
    while (j < m->ncalls && m->calls[j].comm == m->calls[i].comm &&
           m->calls[j].seq == m->calls[i].seq)
      j++;
    for (size_t k = i; k < j; k++) {
      const mcall *c = &m->calls[k], *l = &m->calls[last];
      if (c->start + m->procs[c->proc].shift > l->start + m->procs[l->proc].shift) last = k;
    }
    if (j - i >= 2) {
      const mcall *l = &m->calls[last];
      uint64_t at = l->start + m->procs[l->proc].shift, waited = 0;
      for (size_t k = i; k < j; k++) {
        const mcall *c = &m->calls[k];
        uint64_t s = c->start + m->procs[c->proc].shift;
        if (k == last || s >= at) continue;
        waited += at - s;
        m->procs[c->proc].waited_ns += at - s;
      }
      m->procs[l->proc].last_arrivals++;
      m->procs[l->proc].caused_wait_ns += waited;
      m->instances++;
      last_n[(size_t)l->proc * nn + l->func]++;
      wait_n[(size_t)l->proc * nn + l->func] += waited;
      of_func[l->func]++;
    }
    i = j;
  }
  /* the verdict: the (rank, function) the others waited longest for */
  m->v_proc = UINT32_MAX;
  for (uint32_t p = 0; p < m->nprocs; p++)
    for (uint32_t fn = 0; fn < nn; fn++) {
      size_t k = (size_t)p * nn + fn;
      if (last_n[k] && (m->v_proc == UINT32_MAX || wait_n[k] > m->v_wait))
        m->v_proc = p, m->v_func = fn, m->v_last = last_n[k], m->v_of = of_func[fn],
        m->v_wait = wait_n[k];
    }
  free(last_n), free(wait_n), free(of_func);
  free(mh);
}

static int64_t rank_of(const cv_mpi *m, uint32_t i) {
  return m->procs[i].rank >= 0 ? m->procs[i].rank : (int64_t)i;
}

static double pct(uint64_t a, uint64_t b) {
  return b ? 100.0 * (double)a / (double)b : 0;
}

/* The others' wait in the verdict, as a share of their runs together. */
static double others_share(const cv_mpi *m) {
  return m->nprocs > 1 ? pct(m->v_wait, m->span_ns * (m->nprocs - 1)) : 0;
}

static uint64_t run_of(const mproc *p) {
  return p->last > p->first ? p->last - p->first : 0;
}

/* Ranks in rank order. */
static uint32_t *ranked(const cv_mpi *m) {
  uint32_t *o = XCALLOC(m->nprocs ? m->nprocs : 1, sizeof *o);
  for (uint32_t i = 0; i < m->nprocs; i++) {
    uint32_t j = i;
    for (; j > 0 && rank_of(m, o[j - 1]) > rank_of(m, i); j--) o[j] = o[j - 1];
    o[j] = i;
  }
  return o;
}

void cv_mpi_text(cv_ctx *ctx, FILE *f) {
  cv_mpi *m = ctx->mpi;
  if (!m || !m->records) return;
  analyze(ctx, m);
  fprintf(f, "\nMPI: %u ranks, %" PRIu64 " collective instances\n", m->nprocs, m->instances);
  if (m->v_proc != UINT32_MAX)
    fprintf(f,
            "  verdict: rank %" PRId64 " arrives last at %.0f %% of %s instances (%" PRIu64
            " of %" PRIu64 "); the others wait %.1f %% of the run for it (%.3f ms in all)\n",
            rank_of(m, m->v_proc), pct(m->v_last, m->v_of), m->names[m->v_func], m->v_last, m->v_of,
            others_share(m), (double)m->v_wait / 1e6);
  uint32_t *o = ranked(m);
  for (uint32_t k = 0; k < m->nprocs; k++) {
    const mproc *p = &m->procs[o[k]];
    uint64_t run = run_of(p), host = run > p->mpi_ns ? run - p->mpi_ns : 0;
    fprintf(f,
            "  rank %" PRId64 " (%s pid %u): MPI %.1f %%, GPU busy %.1f %%, host work %.1f %% of "
            "%.3f ms; last at %" PRIu64 " collectives, waited %.3f ms for others\n",
            rank_of(m, o[k]), m->names[m->host_names[p->host]], p->pid, pct(p->mpi_ns, run),
            pct(p->gpu_ns, run), pct(host, run), (double)run / 1e6, p->last_arrivals,
            (double)p->waited_ns / 1e6);
  }
  free(o);
}

void cv_mpi_json(cv_ctx *ctx, FILE *f) {
  cv_mpi *m = ctx->mpi;
  if (!m || !m->records) return;
  analyze(ctx, m);
  fprintf(f, ",\n\"mpi\":{\"ranks\":%u,\"instances\":%" PRIu64 ",\"run_ns\":%" PRIu64, m->nprocs,
          m->instances, m->span_ns);
  if (m->v_proc != UINT32_MAX) {
    fprintf(f, ",\"straggler\":{\"rank\":%" PRId64 ",\"function\":", rank_of(m, m->v_proc));
    rtg_json_fputs(f, m->names[m->v_func]);
    fprintf(f,
            ",\"last\":%" PRIu64 ",\"instances\":%" PRIu64
            ",\"last_pct\":%.1f,\"others_wait_ns\":%" PRIu64 ",\"others_wait_pct\":%.2f}",
            m->v_last, m->v_of, pct(m->v_last, m->v_of), m->v_wait, others_share(m));
  }
  fprintf(f, ",\"per_rank\":[");
  uint32_t *o = ranked(m);
  for (uint32_t k = 0; k < m->nprocs; k++) {
    const mproc *p = &m->procs[o[k]];
    uint64_t run = run_of(p), host = run > p->mpi_ns ? run - p->mpi_ns : 0;
    fprintf(f, "%s\n{\"rank\":%" PRId64 ",\"host\":", k ? "," : "", rank_of(m, o[k]));
    rtg_json_fputs(f, m->names[m->host_names[p->host]]);
    fprintf(f,
            ",\"pid\":%u,\"run_ns\":%" PRIu64 ",\"mpi_ns\":%" PRIu64 ",\"gpu_busy_ns\":%" PRIu64
            ",\"host_work_ns\":%" PRIu64 ",\"last_arrivals\":%" PRIu64 ",\"waited_ns\":%" PRIu64
            ",\"caused_wait_ns\":%" PRIu64 "}",
            p->pid, run, p->mpi_ns, p->gpu_ns, host, p->last_arrivals, p->waited_ns,
            p->caused_wait_ns);
  }
  fprintf(f, "]}");
  free(o);
}

void cv_mpi_free(cv_ctx *ctx) {
  cv_mpi *m = ctx->mpi;
  if (!m) return;
  for (uint32_t i = 0; i < m->nnames; i++) free(m->names[i]);
  free(m->names), free(m->host_names), free(m->procs), free(m->calls), free(m);
  ctx->mpi = NULL;
}
