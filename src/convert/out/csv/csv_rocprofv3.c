/* --csv DIR: rocprofv3's per-event CSV files, so that scripts written for
 * rocprofv3's output run unchanged on rtg's data.
 *
 * Layout, as rocprofv3 writes with its defaults (output file name
 * "%hostname%/%pid%"): DIR/<host>/<pid>_<kind>.csv, one set per process,
 * a file only for a kind the process has records of:
 *   kernel_trace.csv       "Kind","Agent_Id","Queue_Id","Stream_Id","Thread_Id",
 *                          "Dispatch_Id","Kernel_Id","Kernel_Name","Correlation_Id",
 *                          "Start_Timestamp","End_Timestamp","LDS_Block_Size",
 *                          "Scratch_Size","VGPR_Count","Accum_VGPR_Count","SGPR_Count",
 *                          "Workgroup_Size_X".."_Z","Grid_Size_X".."_Z"
 *   hip_api_trace.csv, hsa_api_trace.csv, marker_api_trace.csv
 *                          "Domain","Function","Process_Id","Thread_Id",
 *                          "Correlation_Id","Start_Timestamp","End_Timestamp"
 *   memory_copy_trace.csv  "Kind","Direction","Stream_Id","Source_Agent_Id",
 *                          "Destination_Agent_Id","Correlation_Id",
 *                          "Start_Timestamp","End_Timestamp"
 *   memory_allocation_trace.csv
 *                          "Kind","Operation","Agent_Id","Allocation_Size","Address",
 *                          "Correlation_Id","Start_Timestamp","End_Timestamp"
 *   mpi_api_trace.csv      rtg's own (rocprofv3 records no MPI calls): the API
 *                          columns (Domain "MPI_API", Correlation_Id empty),
 *                          then "Bytes","Calls","Arguments"
 * (rocprofiler-sdk's source/lib/output/generateCSV.cpp, ROCm 7.0).  Text
 * columns are quoted, numbers are not; agents are "Agent N" with rtg's
 * agent index, which is the HSA enumeration order (rocprofv3's default
 * "relative" index).  Kernel_Id, LDS_Block_Size and the register counts
 * come from the kernel's KERNEL record, with rocprofv3's meaning (its
 * kernel symbol's id, static LDS rounded up, the descriptor's registers).
 * A value rtg does not record (Stream_Id, the dispatching thread of a
 * kernel, the correlation id of an HSA call or a marker in a trace of an
 * earlier version, the kernel values of a trace without KERNEL records) is
 * written empty, never made up.  Correlation_Id is the call's own id on API
 * rows (rocprofv3's internal id); a kernel or copy has the id of the HIP
 * call that submitted it (outside HIP calls: of the HSA call).  Rows are
 * in input order, as rocprofv3's are in completion order. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "convert.h"
#include "shared/memuse.h"
#include "outfile.h"
#include "bgwrite.h"
#include "jsonw.h"
#include "xalloc.h"

enum { F_KERNEL, F_HIP, F_HSA, F_COPY, F_MARKER, F_MEMORY, F_MPI, F_N };

static const char *const file_names[F_N] = {"kernel_trace.csv",     "hip_api_trace.csv",
                                            "hsa_api_trace.csv",    "memory_copy_trace.csv",
                                            "marker_api_trace.csv", "memory_allocation_trace.csv",
                                            "mpi_api_trace.csv"};

#define API_HEADER                                                                                 \
  "\"Domain\",\"Function\",\"Process_Id\",\"Thread_Id\",\"Correlation_Id\",\"Start_Timestamp\","   \
  "\"End_Timestamp\"\n"
static const char *const headers[F_N] = {
    "\"Kind\",\"Agent_Id\",\"Queue_Id\",\"Stream_Id\",\"Thread_Id\",\"Dispatch_Id\","
    "\"Kernel_Id\",\"Kernel_Name\",\"Correlation_Id\",\"Start_Timestamp\",\"End_Timestamp\","
    "\"LDS_Block_Size\",\"Scratch_Size\",\"VGPR_Count\",\"Accum_VGPR_Count\",\"SGPR_Count\","
    "\"Workgroup_Size_X\",\"Workgroup_Size_Y\",\"Workgroup_Size_Z\",\"Grid_Size_X\","
    "\"Grid_Size_Y\",\"Grid_Size_Z\"\n",
    API_HEADER,
    API_HEADER,
    "\"Kind\",\"Direction\",\"Stream_Id\",\"Source_Agent_Id\",\"Destination_Agent_Id\","
    "\"Correlation_Id\",\"Start_Timestamp\",\"End_Timestamp\"\n",
    API_HEADER,
    "\"Kind\",\"Operation\",\"Agent_Id\",\"Allocation_Size\",\"Address\",\"Correlation_Id\","
    "\"Start_Timestamp\",\"End_Timestamp\"\n",
    "\"Domain\",\"Function\",\"Process_Id\",\"Thread_Id\",\"Correlation_Id\",\"Start_Timestamp\","
    "\"End_Timestamp\",\"Bytes\",\"Calls\",\"Arguments\"\n",
};

/* rocprofv3 rounds the LDS size up to the allocation granularity it
 * assumes (128 dwords). */
#define LDS_BLOCK 512u

/* At most this many files open at once (a merged trace of many processes
 * has five files each); the least recently used one is closed and opened
 * again for appending when needed. */
#define MAX_OPEN 64

/* Rows gather in a buffer per open file; a full one goes to the
 * background writer (bgwrite.h) while the rows that follow are formatted. */
#define PENDING 8 /* full buffers handed over and not written yet, at most */
#define CHUNK (64 * 1024)

typedef struct csv_file {
  FILE *f;
  char *buf; /* rows not handed to the writer yet */
  size_t blen;
  bool created;  /* header written (the file exists) */
  uint64_t used; /* last use, for closing the least recently used */
  uint64_t rows;
} csv_file;

typedef struct csv {
  cv_ctx *ctx;
  csv_file *files; /* F_N per process, index proc * F_N + kind */
  uint32_t nprocs;
  uint32_t nopen;
  uint64_t clock;
  char *line; /* the row being built */
  size_t len, cap;
  rtg_bgw *bg;
  bool failed;
  const char *dir; /* where the files are made (outfile.h): they go to --csv DIR at the end */
} csv;

static void *csv_open(cv_ctx *ctx) {
  const char *dir = rtg_out_dir(ctx->opt.csv_dir, NULL);
  if (!dir) {
    rtg_error("cannot create directory: path=%s: %s", ctx->opt.csv_dir, strerror(errno));
    return NULL;
  }
  csv *c = rtg_xcalloc(1, sizeof *c, "the CSV output");
  c->ctx = ctx;
  c->dir = dir;
  c->cap = 4096;
  c->line = rtg_xmalloc(c->cap, "a CSV row");
  c->bg = rtg_bgw_new(PENDING, false);
  if (!c->bg) rtg_out_of_memory("the CSV output's writer");
  return c;
}

/* ------------------------------------------------------------ the row */

static void need(csv *c, size_t n) {
  if (c->len + n <= c->cap) return;
  while (c->len + n > c->cap) c->cap *= 2;
  c->line = rtg_xrealloc(c->line, c->cap, "a CSV row");
}

static void put_raw(csv *c, const char *s, size_t n) {
  need(c, n);
  memcpy(c->line + c->len, s, n);
  c->len += n;
}
#define put_lit(c, s) put_raw(c, s, sizeof s - 1)

static void put_u64(csv *c, uint64_t v) {
  char b[24];
  int n = 0;
  do b[sizeof b - 1 - n++] = (char)('0' + v % 10);
  while (v /= 10);
  put_raw(c, b + sizeof b - n, (size_t)n);
}

/* A quoted text column.  rocprofv3 writes the bytes between quotes as they
 * are; here a quote inside is doubled (RFC 4180) and bytes that are not
 * UTF-8 become U+FFFD, so that every CSV reader takes the file. */
static void put_str(csv *c, const char *s) {
  size_t n = strlen(s);
  need(c, 3 * n + 2);
  char *o = c->line + c->len;
  *o++ = '"';
  for (size_t i = 0; i < n;) {
    unsigned char b = (unsigned char)s[i];
    if (b < 0x80 && b != '"') { /* most names are ASCII */
      *o++ = (char)b, i++;
      continue;
    }
    int k = rtg_utf8_seq_len((const unsigned char *)s + i, n - i);
    if (k == 0) {
      memcpy(o, "\xEF\xBF\xBD", 3), o += 3, i++;
    } else if (s[i] == '"') {
      *o++ = '"', *o++ = '"', i++;
    } else {
      memcpy(o, s + i, (size_t)k), o += k, i += (size_t)k;
    }
  }
  *o++ = '"';
  c->len = (size_t)(o - c->line);
}

static void put_agent(csv *c, uint32_t agent) {
  put_lit(c, "\"Agent ");
  put_u64(c, agent);
  put_lit(c, "\"");
}

static void put_time(csv *c, uint64_t ns) {
  uint64_t base = c->ctx->time_base;
  put_u64(c, ns > base ? ns - base : 0);
}

#define SEP(c) put_lit(c, ",")

/* ------------------------------------------------------------ files */

#define HOST_MAX 128

/* The host name as a directory name: '/' and control characters become
 * '_', at most HOST_MAX bytes; "" (no directory) for a trace without a
 * host name, "." or "..". */
static void host_dir(const char *h, char *out) {
  size_t n = 0;
  for (; h[n] && n < HOST_MAX; n++) out[n] = h[n] == '/' || (unsigned char)h[n] < 0x20 ? '_' : h[n];
  out[n] = 0;
  if (!strcmp(out, ".") || !strcmp(out, "..")) out[0] = 0;
}

static void flush_file(csv *c, csv_file *cf) {
  if (cf->blen)
    rtg_bgw_put(c->bg, cf->f, cf->buf, cf->blen);
  else
    free(cf->buf);
  cf->buf = NULL;
  cf->blen = 0;
}

static void append(csv *c, csv_file *cf, const char *s, size_t n) {
  if (cf->blen + n > CHUNK) flush_file(c, cf);
  if (n > CHUNK) { /* a row longer than a chunk goes alone */
    char *copy = rtg_xmalloc(n, "a long CSV row");
    memcpy(copy, s, n);
    rtg_bgw_put(c->bg, cf->f, copy, n);
    return;
  }
  if (!cf->buf) cf->buf = rtg_xmalloc(CHUNK, "a CSV file's buffer");
  memcpy(cf->buf + cf->blen, s, n);
  cf->blen += n;
}

static csv_file *file_of(csv *c, uint32_t proc, int kind) {
  if (proc >= c->nprocs) {
    uint32_t n = c->nprocs ? c->nprocs : 4;
    while (n <= proc) n *= 2;
    csv_file *nf = rtg_xrealloc(c->files, (size_t)n * F_N * sizeof *nf, "the CSV files");
    memset(nf + (size_t)c->nprocs * F_N, 0, (size_t)(n - c->nprocs) * F_N * sizeof *nf);
    c->files = nf;
    c->nprocs = n;
  }
  csv_file *cf = &c->files[(size_t)proc * F_N + kind];
  cf->used = ++c->clock;
  if (cf->f) return cf;
  if (c->nopen >= MAX_OPEN) { /* close the least recently used */
    csv_file *lru = NULL;
    for (size_t i = 0; i < (size_t)c->nprocs * F_N; i++)
      if (c->files[i].f && (!lru || c->files[i].used < lru->used)) lru = &c->files[i];
    flush_file(c, lru);
    rtg_bgw_drain(c->bg); /* its rows are written before it is closed */
    if (fclose(lru->f)) c->failed = true;
    lru->f = NULL;
    c->nopen--;
  }
  const cv_proc *p = &c->ctx->procs[proc];
  char host[HOST_MAX + 1];
  host_dir(cv_str(c->ctx, c->ctx->hosts[p->host]), host);
  char path[4096];
  int n;
  if (*host) {
    snprintf(path, sizeof path, "%s/%s", c->dir, host);
    if (mkdir(path, 0777) && errno != EEXIST) {
      rtg_error("cannot create directory: path=%s: %s", path, strerror(errno));
      c->failed = true;
      return NULL;
    }
    n = snprintf(path, sizeof path, "%s/%s/%u_%s", c->dir, host, p->pid, file_names[kind]);
  } else {
    n = snprintf(path, sizeof path, "%s/%u_%s", c->dir, p->pid, file_names[kind]);
  }
  if (n < 0 || (size_t)n >= sizeof path) {
    rtg_error("output path too long: %s", c->ctx->opt.csv_dir);
    c->failed = true;
    return NULL;
  }
  cf->f = fopen(path, cf->created ? "a" : "w");
  if (!cf->f) {
    rtg_error("cannot create output: path=%s: %s", path, strerror(errno));
    c->failed = true;
    return NULL;
  }
  setvbuf(cf->f, NULL, _IONBF, 0); /* chunks go to write() as they are */
  c->nopen++;
  if (!cf->created) {
    append(c, cf, headers[kind], strlen(headers[kind]));
    cf->created = true;
  }
  return cf;
}

static void row_end(csv *c, uint32_t proc, int kind) {
  put_lit(c, "\n");
  csv_file *cf = c->failed ? NULL : file_of(c, proc, kind);
  if (cf) {
    append(c, cf, c->line, c->len);
    cf->rows++;
  }
  c->len = 0;
}

/* ------------------------------------------------------------ rows */

/* rocprofiler-sdk's tracing domains of the HSA tables: which table a
 * function is in follows from its prefix. */
static const char *hsa_domain(const char *fn) {
  if (!strncmp(fn, "hsa_amd_", 8)) return "\"HSA_AMD_EXT_API\"";
  if (!strncmp(fn, "hsa_ext_image_", 14) || !strncmp(fn, "hsa_ext_sampler_", 16))
    return "\"HSA_IMAGE_EXT_API\"";
  if (!strncmp(fn, "hsa_ext_program_", 16)) return "\"HSA_FINALIZE_EXT_API\"";
  return "\"HSA_CORE_API\"";
}

/* HIP: the compiler-generated calls (__hipPushCallConfiguration,
 * __hipRegisterFunction, ...) have a domain of their own. */
static const char *hip_domain(const char *fn) {
  return !strncmp(fn, "__hip", 5) ? "\"HIP_COMPILER_API_EXT\"" : "\"HIP_RUNTIME_API_EXT\"";
}

static void api_row(csv *c, const cv_event *ev, const char *domain, int kind) {
  const cv_proc *p = &c->ctx->procs[ev->proc];
  put_raw(c, domain, strlen(domain));
  SEP(c);
  put_str(c, ev->name ? ev->name : "");
  SEP(c);
  put_u64(c, p->pid);
  SEP(c);
  put_u64(c, ev->tid);
  SEP(c);
  if (ev->has_corr) put_u64(c, ev->corr);
  SEP(c);
  put_time(c, ev->start);
  SEP(c);
  put_time(c, ev->end);
  row_end(c, ev->proc, kind);
}

/* An MPI call (rtg's own file: rocprofv3 has none): the API columns, its
 * bytes (empty when it has none), how many calls the row stands for (a
 * record of repeated tests: polls) and its record's identification (comm:
 * seq: size: rank: peer: root: bytes: req: nreq: done: polls: busy:). */
static void mpi_row(csv *c, const cv_event *ev) {
  const cv_proc *p = &c->ctx->procs[ev->proc];
  put_lit(c, "\"MPI_API\",");
  put_str(c, ev->name ? ev->name : "");
  SEP(c);
  put_u64(c, p->pid);
  SEP(c);
  put_u64(c, ev->tid);
  put_lit(c, ",,"); /* Correlation_Id: MPI calls have none */
  put_time(c, ev->start);
  SEP(c);
  put_time(c, ev->end);
  SEP(c);
  if (ev->has_bytes) put_u64(c, ev->bytes);
  SEP(c);
  put_u64(c, ev->polls ? ev->polls : 1);
  SEP(c);
  put_str(c, ev->args ? ev->args : "");
  row_end(c, ev->proc, F_MPI);
}

static void kernel_row(csv *c, const cv_event *ev) {
  put_lit(c, "\"KERNEL_DISPATCH\",");
  put_agent(c, ev->agent);
  SEP(c);
  put_u64(c, ev->queue);
  put_lit(c, ",,,"); /* Stream_Id; Thread_Id: rtg's GPU records are written by its own thread */
  const cv_kinfo *k = ev->kinfo;
  put_u64(c, ev->id);
  SEP(c);
  if (k) put_u64(c, k->id);
  SEP(c);
  put_str(c, ev->name ? ev->name : "");
  SEP(c);
  if (ev->has_corr) put_u64(c, ev->corr);
  SEP(c);
  put_time(c, ev->start);
  SEP(c);
  put_time(c, ev->end);
  SEP(c);
  /* rocprofv3's LDS is the kernel's static group segment in its
   * granularity; without the kernel's record, the packet's (static and
   * dynamic LDS); scratch is the packet's private segment size */
  if (k && k->has_lds)
    put_u64(c, (k->lds + LDS_BLOCK - 1) / LDS_BLOCK * LDS_BLOCK);
  else if (ev->has_lds)
    put_u64(c, (ev->lds + LDS_BLOCK - 1) / LDS_BLOCK * LDS_BLOCK);
  SEP(c);
  if (ev->has_scratch) put_u64(c, ev->scratch);
  if (k && k->has_regs) { /* VGPR, AGPR, SGPR counts */
    SEP(c);
    put_u64(c, k->arch_vgpr);
    SEP(c);
    put_u64(c, k->accum_vgpr);
    SEP(c);
    put_u64(c, k->sgpr);
  } else {
    put_lit(c, ",,,");
  }
  if (ev->has_dims) {
    const uint32_t v[6] = {ev->wg.x, ev->wg.y, ev->wg.z, ev->grid.x, ev->grid.y, ev->grid.z};
    for (int i = 0; i < 6; i++) {
      SEP(c);
      put_u64(c, v[i]);
    }
  } else {
    put_lit(c, ",,,,,,");
  }
  row_end(c, ev->proc, F_KERNEL);
}

static const char *direction(const char *kind) {
  static const char *const map[][2] = {
      {"HostToDevice", "\"MEMORY_COPY_HOST_TO_DEVICE\""},
      {"DeviceToHost", "\"MEMORY_COPY_DEVICE_TO_HOST\""},
      {"DeviceToDevice", "\"MEMORY_COPY_DEVICE_TO_DEVICE\""},
      {"HostToHost", "\"MEMORY_COPY_HOST_TO_HOST\""},
  };
  for (size_t i = 0; kind && i < sizeof map / sizeof map[0]; i++)
    if (!strcmp(kind, map[i][0])) return map[i][1];
  return "";
}

static void copy_row(csv *c, const cv_event *ev) {
  put_lit(c, "\"MEMORY_COPY\",");
  const char *d = direction(ev->name);
  put_raw(c, d, strlen(d));
  put_lit(c, ",,"); /* Stream_Id */
  if (ev->has_agents) {
    put_agent(c, ev->src_agent);
    SEP(c);
    put_agent(c, ev->dst_agent);
  } else {
    SEP(c);
  }
  SEP(c);
  if (ev->has_corr) put_u64(c, ev->corr);
  SEP(c);
  put_time(c, ev->start);
  SEP(c);
  put_time(c, ev->end);
  row_end(c, ev->proc, F_COPY);
}

static void csv_event(void *st, const cv_event *ev) {
  csv *c = st;
  switch (ev->type) {
  case CV_HIP_API:
    api_row(c, ev, hip_domain(ev->name ? ev->name : ""), F_HIP);
    break;
  case CV_HSA_API:
    /* the call's own id (traces of earlier versions have none: empty) */
    api_row(c, ev, hsa_domain(ev->name ? ev->name : ""), F_HSA);
    break;
  case CV_KERNEL:
    kernel_row(c, ev);
    break;
  case CV_COPY:
    copy_row(c, ev);
    break;
  case CV_MARK:
  case CV_RANGE:
    /* roctxMarkA, roctxRangePushA/Pop and roctxRangeStartA/Stop: rocprofv3
     * names the row after the message */
    api_row(c, ev, "\"MARKER_CORE_RANGE_API\"", F_MARKER);
    break;
  case CV_MPI:
    mpi_row(c, ev);
    break;
  default: /* barriers, host dispatch records, syscalls: no rocprofv3 file */
    break;
  }
}

/* memory_allocation_trace.csv: the pool allocations and frees of the
 * memory records (shared/memuse.h; locks pin memory the program has and
 * are not rows), in time order; the virtual memory API's handles as
 * rocprofv3's VMEM_ALLOCATE and VMEM_FREE.  As rocprofv3, a free names no agent; its
 * size is that of the allocation it freed (0 when none is known).  The
 * correlation id is the HIP call's the allocation was made in, empty for
 * the runtime's own. */
static void memory_rows(csv *c) {
  cv_mem *mem = cv_mem_resolve(c->ctx);
  for (size_t i = 0; mem && i < mem->n; i++) {
    const cv_mem_rec *m = &mem->v[i];
    if (m->op != CV_MEM_ALLOC && m->op != CV_MEM_FREE) continue;
    if (m->op == CV_MEM_ALLOC && m->vmem)
      put_lit(c, "\"MEMORY_ALLOCATION\",\"MEMORY_ALLOCATION_VMEM_ALLOCATE\",");
    else if (m->op == CV_MEM_ALLOC)
      put_lit(c, "\"MEMORY_ALLOCATION\",\"MEMORY_ALLOCATION_ALLOCATE\",");
    else if (m->vmem)
      put_lit(c, "\"MEMORY_ALLOCATION\",\"MEMORY_ALLOCATION_VMEM_FREE\",");
    else
      put_lit(c, "\"MEMORY_ALLOCATION\",\"MEMORY_ALLOCATION_FREE\",");
    if (m->op == CV_MEM_ALLOC && m->has_agent) put_agent(c, m->agent);
    SEP(c);
    put_u64(c, m->op == CV_MEM_FREE && !m->matched ? 0 : m->size);
    char addr[32];
    int n = snprintf(addr, sizeof addr, ",\"0x%016llx\",", (unsigned long long)m->addr);
    put_raw(c, addr, (size_t)n);
    if (m->has_corr) put_u64(c, m->corr);
    SEP(c);
    put_time(c, m->start);
    SEP(c);
    put_time(c, m->end);
    row_end(c, m->proc, F_MEMORY);
  }
}

static bool csv_close(void *st) {
  csv *c = st;
  memory_rows(c);
  for (size_t i = 0; i < (size_t)c->nprocs * F_N; i++)
    if (c->files[i].f) flush_file(c, &c->files[i]);
  rtg_bgw_drain(c->bg);
  for (size_t i = 0; i < (size_t)c->nprocs * F_N; i++)
    if (c->files[i].f && fclose(c->files[i].f)) c->failed = true;
  if (!rtg_bgw_free(c->bg)) c->failed = true;
  bool ok = !c->failed;
  if (!ok) rtg_error("cannot write the CSV files in %s: %s", c->ctx->opt.csv_dir, rtg_out_why());
  if (c->ctx->opt.verbose) {
    uint64_t rows[F_N] = {0};
    for (size_t i = 0; i < (size_t)c->nprocs * F_N; i++) rows[i % F_N] += c->files[i].rows;
    fprintf(c->ctx->report, "rocprofv3 CSV rows:");
    for (int k = 0; k < F_N; k++)
      fprintf(c->ctx->report, " %s %llu", file_names[k], (unsigned long long)rows[k]);
    fputc('\n', c->ctx->report);
  }
  free(c->files);
  free(c->line);
  free(c);
  return ok;
}

const cv_sink cv_csv_sink = {
    .name = "csv",
    .open = csv_open,
    .event = csv_event,
    .close = csv_close,
};
