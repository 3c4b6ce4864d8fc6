/* Hosts on one time axis.  Before the first pass, the clock pairs of every
 * trace file make the map of each host's boot clock onto the reference
 * host's (src/common/clockmap.h); trace.c then moves every time of a record
 * through its host's map, so every output gets the aligned times.  A
 * file's pairs are its first line's (the header) and its last line's (the
 * summary, when it is the same process's): two reads per file, not a pass.
 * A process whose header is elsewhere in a file (files concatenated) gets
 * its host's map all the same. */
#define _GNU_SOURCE /* memrchr */
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "convert.h"
#include "dedup.h"
#include "inrange.h"
#include "xalloc.h"
#include "jsonw.h"

#define HEAD_MAX 65536  /* a header line is far shorter */
#define HEAD_FIRST 4096 /* read first */
#define TAIL_MAX 4096   /* so is a summary line */

/* The last complete line of buf[0..n) (ending in '\n'), NUL-terminated in
 * place; NULL when there is none. */
static char *last_line(char *buf, size_t n, size_t *len) {
  if (!n || buf[n - 1] != '\n') return NULL;
  buf[--n] = 0;
  char *nl = memrchr(buf, '\n', n);
  if (!nl) return NULL; /* (the tail may start inside the line) */
  *len = n - (size_t)(nl + 1 - buf);
  return nl + 1;
}

/* The pairs of one file (its bytes [base, base + size) of fd): its
 * header's, and its summary's (with pairs; else only the summary is read).
 * True when its summary counts MPI calls. */
static bool file_pairs(cv_ctx *ctx, int fd, uint64_t base, uint64_t size, bool pairs) {
  static char buf[HEAD_MAX + 1];
  /* a header line fits in a page: read more only when it does not */
  size_t want = size < HEAD_FIRST ? (size_t)size : HEAD_FIRST;
  ssize_t n = pread(fd, buf, want, (off_t)base);
  char *nl = n > 0 ? memchr(buf, '\n', (size_t)n) : NULL;
  if (!nl && n == (ssize_t)want && size > want) {
    n = pread(fd, buf, size < HEAD_MAX ? (size_t)size : HEAD_MAX, (off_t)base);
    nl = n > 0 ? memchr(buf, '\n', (size_t)n) : NULL;
  }
  rtg_record rec;
  if (!nl || rtg_record_parse(buf, (size_t)(nl - buf), &rec, NULL) != RTG_KIND_HEADER) return false;
  const rtg_rec_HEADER *h = &rec.u.HEADER;
  uint32_t host = UINT32_MAX;
  if (pairs && (host = rtg_clockmap_host(&ctx->clocks, h->host)) == UINT32_MAX)
    rtg_out_of_memory("the clocks of hosts"); /* (-v names it, pairs or not) */
  bool has_pair =
      RTG_HAS(&rec, RTG_FIELD(HEADER, boot_ns)) && RTG_HAS(&rec, RTG_FIELD(HEADER, realtime_ns));
  rtg_clock_sample start = {h->boot_ns, h->realtime_ns, h->realtime_err}, exit;
  uint32_t pid = rec.pid;
  bool has_exit = false, mpi = false;
  uint64_t from = size > TAIL_MAX ? size - TAIL_MAX : 0;
  n = pread(fd, buf, (size_t)(size - from), (off_t)(base + from));
  size_t len;
  char *line = n > 0 ? last_line(buf, (size_t)n, &len) : NULL;
  if (line && rtg_record_parse(line, len, &rec, NULL) == RTG_KIND_SUMMARY && rec.pid == pid) {
    const rtg_rec_SUMMARY *s = &rec.u.SUMMARY;
    mpi = RTG_HAS(&rec, RTG_FIELD(SUMMARY, mpi_calls)) && s->mpi_calls;
    if (RTG_HAS(&rec, RTG_FIELD(SUMMARY, boot_ns)) &&
        RTG_HAS(&rec, RTG_FIELD(SUMMARY, realtime_ns))) {
      exit = (rtg_clock_sample){s->boot_ns, s->realtime_ns, s->realtime_err};
      has_exit = true;
    }
  }
  if (pairs && has_pair && !rtg_clockmap_add(&ctx->clocks, host, &start, has_exit ? &exit : NULL))
    rtg_out_of_memory("the clocks of hosts");
  return mpi;
}

static bool several_with_pairs(const rtg_clockmap *m);

void cv_align_hosts(cv_ctx *ctx) {
  if (ctx->clocks_made) return;
  ctx->clocks_made = true;
  /* --analyze reads the MPI calls for the stragglers, aligned or not */
  bool analyze = ctx->opt.analyze_out != NULL, align = !ctx->opt.no_align;
  if (!align && !analyze) return;
  rtg_u64map seen = {0};
  const char **mpi =
      rtg_xcalloc(ctx->ninputs ? (size_t)ctx->ninputs : 1, sizeof *mpi, "the clocks of hosts");
  int nmpi = 0;
  for (int i = 0; i < ctx->ninputs; i++) {
    const char *path = ctx->inputs[i];
    if (!strcmp(path, "-") || rtg_seen_file(&seen, path, 0, NULL)) continue;
    uint64_t base, size;
    int fd = rtg_inrange_open(path, &base, &size);
    if (fd < 0) continue; /* (the pass says why) */
    if (size != UINT64_MAX && file_pairs(ctx, fd, base, size, align)) mpi[nmpi++] = path;
    close(fd);
  }
  rtg_u64map_free(&seen);
  rtg_clockmap *m = &ctx->clocks;
  /* the MPI calls: for the collectives' bounds (several hosts), and for
   * the stragglers (--analyze) */
  if (analyze || (align && several_with_pairs(m))) cv_mpi_read(ctx, mpi, nmpi, analyze);
  free(mpi);
  if (!align) return;
  rtg_clockmap_solve(m);
  cv_mpi_refine(ctx);
  if (m->moves) { /* strace times (wall clock) land on the common axis */
    ctx->realtime_minus_boot = (int64_t)((uint64_t)m->hosts[m->ref].offset_ns - m->lift_ns);
    ctx->have_clock_offset = true;
  }
  if (ctx->opt.verbose) cv_clock_text(ctx, ctx->report, true);
}

const rtg_clock_host *cv_host_clock(cv_ctx *ctx, uint32_t host) {
  if (host >= ctx->nclock_of_host) {
    uint32_t n = ctx->nhosts > host ? ctx->nhosts : host + 1;
    const rtg_clock_host **t = realloc(ctx->clock_of_host, n * sizeof *t);
    if (!t) rtg_out_of_memory("the clocks of hosts");
    memset(t + ctx->nclock_of_host, 0, (n - ctx->nclock_of_host) * sizeof *t);
    ctx->clock_of_host = t;
    ctx->nclock_of_host = n;
  }
  if (!ctx->clock_of_host[host])
    ctx->clock_of_host[host] = cv_host_clock_named(ctx, cv_str(ctx, ctx->hosts[host]));
  return ctx->clock_of_host[host];
}

const rtg_clock_host *cv_host_clock_named(const cv_ctx *ctx, const char *name) {
  static const rtg_clock_host unknown; /* not moved (but lifted) */
  const rtg_clock_host *h = &unknown;
  for (uint32_t i = 0; i < ctx->clocks.nhosts; i++)
    if (!strcmp(ctx->clocks.hosts[i].name, name)) h = &ctx->clocks.hosts[i];
  return h;
}

/* The hosts in name order (the reference first). */
static uint32_t *by_name(const rtg_clockmap *m) {
  uint32_t *o = malloc(m->nhosts * sizeof *o);
  if (!o) rtg_out_of_memory("the clocks of hosts");
  for (uint32_t i = 0; i < m->nhosts; i++) {
    uint32_t j = i;
    for (; j > 0 && strcmp(m->hosts[o[j - 1]].name, m->hosts[i].name) > 0; j--) o[j] = o[j - 1];
    o[j] = i;
  }
  return o;
}

/* What a host's times move by at its first pair, ns. */
static int64_t moved_by(const rtg_clockmap *m, const rtg_clock_host *h) {
  return (int64_t)((uint64_t)h->shift_ns + m->lift_ns); /* (wrapping: broken pairs) */
}

/* Did two hosts or more have pairs (was there anything to align)? */
static bool several_with_pairs(const rtg_clockmap *m) {
  uint32_t n = 0;
  for (uint32_t i = 0; i < m->nhosts; i++) n += m->hosts[i].nprocs > 0;
  return n >= 2;
}

void cv_clock_text(const cv_ctx *ctx, FILE *f, bool verbose) {
  const rtg_clockmap *m = &ctx->clocks;
  if (m->nhosts < 2 || (!verbose && !several_with_pairs(m))) return;
  if (m->ref == UINT32_MAX) {
    fprintf(f, "hosts: %u, none with clock pairs: each on its own CLOCK_BOOTTIME\n", m->nhosts);
    return;
  }
  fprintf(f, "hosts on one time axis: %s's CLOCK_BOOTTIME", m->hosts[m->ref].name);
  if (m->lift_ns)
    fprintf(f, " + %" PRIu64 " s (another host's times would be before 0)",
            m->lift_ns / 1000000000);
  bool coll = false;
  for (uint32_t i = 0; i < m->nhosts; i++) coll |= m->hosts[i].by_coll;
  fprintf(f, ", by the hosts' CLOCK_REALTIME pairs%s\n",
          coll ? " and matched MPI collectives" : "");
  uint32_t *o = by_name(m);
  for (uint32_t k = 0; k < m->nhosts; k++) {
    const rtg_clock_host *h = &m->hosts[o[k]];
    if (!h->known) {
      fprintf(f, "  host %s: %s: not moved\n", h->name,
              h->apart ? "its traces are of another time (over an hour apart on the wall clock)"
                       : "no clock pairs");
      continue;
    }
    int64_t by = moved_by(m, h);
    uint64_t mag = by < 0 ? -(uint64_t)by : (uint64_t)by;
    char src[160] = "";
    if (h->by_coll)
      snprintf(src, sizeof src, ", source collectives (%" PRIu64 " instances)", h->coll_n);
    else if (h->coll_n)
      snprintf(src, sizeof src, ", source realtime (within the bounds of %" PRIu64 " collectives)",
               h->coll_n);
    fprintf(f,
            "  host %s: offset %c%" PRIu64 ".%09" PRIu64 " s, uncertainty %" PRIu64
            " ns, drift %+.3f ppm, %zu process%s%s%s%s\n",
            h->name, by < 0 ? '-' : '+', mag / 1000000000, mag % 1000000000, h->uncertainty_ns,
            h->drift * 1e6, h->nprocs, h->nprocs == 1 ? "" : "es",
            o[k] == m->ref ? " (reference)" : "", src,
            h->stepped ? "; its wall clock stepped: no drift applied" : "");
  }
  free(o);
}

void cv_clock_json(const cv_ctx *ctx, FILE *f) {
  const rtg_clockmap *m = &ctx->clocks;
  if (!several_with_pairs(m)) return;
  fprintf(f, ",\n\"hosts\":[");
  uint32_t *o = by_name(m);
  for (uint32_t k = 0; k < m->nhosts; k++) {
    const rtg_clock_host *h = &m->hosts[o[k]];
    fprintf(f, "%s\n{\"host\":", k ? "," : "");
    rtg_json_fputs(f, h->name);
    if (!h->known) {
      fprintf(f, ",\"offset_ns\":%" PRIu64 ",\"source\":\"%s\",\"processes\":%zu}", m->lift_ns,
              h->apart ? "apart" : "none", h->nprocs);
      continue;
    }
    fprintf(f,
            ",\"offset_ns\":%" PRId64 ",\"source\":\"%s\",\"uncertainty_ns\":%" PRIu64
            ",\"drift_ppm\":%.3f,\"processes\":%zu,\"reference\":%s",
            moved_by(m, h), h->by_coll ? "collectives" : "realtime", h->uncertainty_ns,
            h->drift * 1e6, h->nprocs, o[k] == m->ref ? "true" : "false");
    if (h->coll_n)
      fprintf(f, ",\"collectives\":%" PRIu64 ",\"bounds_ns\":[%" PRId64 ",%" PRId64 "]", h->coll_n,
              (int64_t)((uint64_t)h->coll_lo + m->lift_ns),
              (int64_t)((uint64_t)h->coll_hi + m->lift_ns));
    fprintf(f, "}");
  }
  fprintf(f, "]");
  free(o);
}
