/* rtg-convert: the pieces and how they connect (each a room of
 * src/convert, see convert.mk).
 *
 *   passes (passes.c): the span (N% windows, --zero), the main pass, and a
 *        |  second pass for the sinks that need one
 *        v
 *   inputs (in/: trace.c, through the common trace reader; strace.c,
 *        |  tail.c, json.c): one cv_event per record, in file order;
 *        |  merged Chrome JSON events are cv_events too
 *        v
 *   dispatch (convert.c): time window, counting, process table
 *        |
 *        v
 *   sinks, one folder each behind cv_sink (out/<format>/): chrome,
 *   perfetto, stats, gaps, sqlite, workgroups, csv, otf2; analyze/; what
 *   several of them use is in shared/ (tracks, call/op matching, gap
 *   trackers, the time model, stacks)
 *
 * Everything streams: an event's strings live only during the call, and a
 * sink keeps what it needs (interned names, aggregates), never the events. */
#ifndef RTG_CONVERT_H
#define RTG_CONVERT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "agents.h"
#include "clockmap.h"
#include "diag.h"
#include "gap_buckets.h"
#include "rtg/record.h"
#include "strtab.h"
#include "u64map.h"

enum cv_type {
  CV_HIP_API,       /* host: a HIP call */
  CV_HSA_API,       /* host: an HSA call */
  CV_HOST_DISPATCH, /* host: a kernel packet enqueued (start == end == tick) */
  CV_HOST_BARRIER,  /* host: a barrier packet enqueued */
  CV_KERNEL,        /* GPU: a kernel ran on a queue */
  CV_BARRIER,       /* GPU: a barrier packet ran on a queue */
  CV_COPY,          /* GPU: an async copy ran on a copy engine */
  CV_MARK,          /* host: a ROCTx marker (start == end) */
  CV_RANGE,         /* host: a ROCTx range */
  CV_SYSCALL,       /* host: a strace/ltrace call */
  CV_JSON,          /* an event of a Chrome JSON input, merged as it is */
  CV_MPI,           /* host: an MPI call (args: what identifies it, as key:value words) */
  CV_TYPE_COUNT
};

/* A kernel's resources, from its KERNEL record (in/trace.c), kept for the
 * whole run: the dispatches of the kernel point at it (cv_event.kinfo). */
typedef struct cv_kinfo {
  uint64_t id;      /* the kernel id in its process */
  uint32_t proc;    /* index into cv_ctx.procs */
  uint32_t index;   /* its place in cv_ctx.kinfos */
  const char *name; /* the symbol (interned) */
  const char *arch; /* the agent's name ("gfx90a", interned), NULL when not known */
  bool has_regs;    /* arch_vgpr, accum_vgpr, sgpr, wavefront were recorded */
  uint32_t arch_vgpr, accum_vgpr, sgpr, wavefront;
  bool has_lds, has_scratch, has_kernarg;
  uint64_t lds, scratch, kernarg; /* static group, private, kernarg segment bytes */
  bool main_pass;                 /* read in the main pass (sinks list these) */
} cv_kinfo;

typedef struct cv_event {
  enum cv_type type;
  uint32_t proc;       /* index into cv_ctx.procs */
  uint64_t tid;        /* host thread */
  uint64_t start, end; /* CLOCK_BOOTTIME ns, end >= start */
  const char *name;    /* function, kernel (demangled when known), message, copy kind */
  const char *mangled; /* kernel: the raw symbol when name is demangled, else NULL */
  const char *args;    /* API arguments, syscall text; may be NULL */
  const char *kernel;  /* HIP: the kernel the call launched; may be NULL */
  const char *ret;     /* API return value; may be NULL */
  uint64_t corr;       /* API calls: the call's own id; GPU ops: the call that submitted it */
  bool has_corr;
  uint64_t ancestor;    /* API calls, ROCTx: the traced call it was made in, 0: none or unknown */
  uint32_t graph, node; /* kernel, copy: of a hipGraphLaunch (record.h), 0: none */
  /* HSA: a record of repeated calls (polls:): how many (0: one call), and
   * the sum of their durations; start..end then runs from the first call's
   * start to the last one's end */
  uint64_t polls, busy;
  uint32_t agent;    /* the record's agent value; copies: the agent the copy was timed on */
  rtg_device device; /* the device it names (agents.h): lanes, labels, gpuId */
  uint64_t queue;    /* queue index; copies: engine */
  bool has_engine;
  uint64_t id; /* packet id (dispatch/barrier) */
  bool has_dims;
  rtg_dim3 wg, grid;
  uint64_t lds, scratch;
  bool has_lds, has_scratch; /* the record gave them (--csv writes them only then) */
  const cv_kinfo *kinfo;     /* kernel: its KERNEL record, NULL when none */
  uint64_t bytes;
  bool has_bytes;
  uint32_t src_agent, dst_agent;
  bool has_agents;
  uint64_t stack;   /* id of a STACK record of this process, 0 = none */
  uint32_t depth;   /* ROCTx range nesting */
  uint64_t tick;    /* kernel, copy: the host enqueue tick, 0 = not recorded */
  bool has_deps;    /* barrier: it waits on dependency signals */
  uint64_t signal;  /* kernel, barrier, copy: its completion signal's handle; 0: none */
  uint64_t deps[5]; /* barrier, copy: the signals it waited on (0: unused) */
  uint64_t waiter;  /* kernel, barrier, copy: the thread that waited for its end; 0: none */
  const void *json; /* CV_JSON: the cJSON object */
  bool untimed;     /* CV_JSON: it has no "ts" (no window applies) */
  /* What the sink that prepares (cv_sink.prepare) made of the event's
   * line on the trace reader's threads: its bytes and a mark of that
   * sink's own.  NULL when it made nothing, and for every other sink. */
  const char *prep;
  uint32_t prep_len, prep_mark;
} cv_event;

/* A process: one (host, pid).  Files of the same process merge into it. */
typedef struct cv_proc {
  uint32_t host; /* index into cv_ctx.hosts */
  uint32_t pid;
  uint32_t exe;       /* strtab id, or UINT32_MAX */
  uint32_t rank;      /* strtab id, or UINT32_MAX */
  uint64_t boot_ns;   /* its start (the header's boot_ns), 0 = unknown */
  uint64_t lost;      /* records the tracer dropped (SUMMARY) */
  rtg_agents agents;  /* from its AGENT records: names its devices */
  rtg_u64map stacks;  /* stack id -> strtab id of the pcs text */
  rtg_u64map symbols; /* address -> strtab id of "name+off (module)" */
} cv_proc;

/* Per-kind line counters, for -v and the end-of-run summary. */
enum cv_count {
#define CVC_X(K, p, k, F) CVC_##K,
  RTG_RECORD_KINDS(CVC_X)
#undef CVC_X
      CVC_STRACE,
  CVC_HCC,
  CVC_JSON_EVENTS,
  CVC_BAD,       /* looked like a record but did not parse: warned */
  CVC_FOREIGN,   /* other text (application output): ignored silently */
  CVC_BINARY,    /* lines with NUL bytes */
  CVC_TOO_LONG,  /* lines over RTG_LINE_MAX */
  CVC_BAD_TIME,  /* stop before start, zero times: skipped */
  CVC_OUTSIDE,   /* outside --start/--end */
  CVC_TRUNCATED, /* the last line of a file, cut off in the middle of a record */
  CVC_DUPLICATE, /* records of a trace read before (a file twice, a file concatenated) */
  CVC_COUNT
};

typedef struct cv_options {
  const char *json_out;            /* -o; NULL = none, "-" = stdout */
  const char *perfetto_out;        /* -o FILE.pftrace or --format perfetto */
  uint64_t split_size;             /* --split-size: bytes a part of -o at most; 0 = whole */
  bool flows;                      /* -f */
  bool gap_events;                 /* -g */
  bool kernel_names;               /* -k */
  bool by_process;                 /* -p */
  bool verbose;                    /* -v */
  bool workgroups;                 /* -w */
  bool quiet;                      /* -q */
  bool zero_time;                  /* --zero: timestamps relative to the first event */
  const char *stats_dir;           /* --stats[=DIR] */
  bool summary;                    /* --summary */
  const char *gaps_out;            /* --gaps[=FILE], "-" = stdout */
  const char *sqlite_out;          /* --sqlite FILE */
  const char *start_arg, *end_arg; /* --start/--end as given */
  uint64_t gap_buckets_us[16];
  int ngap_buckets;
  int top_gaps;  /* --top-gaps N */
  bool progress; /* --progress / --no-progress */
  int progress_set;
  bool strict;             /* --strict: exit 1 when lines were skipped */
  const char *csv_dir;     /* --csv DIR: rocprofv3's per-event CSV files */
  const char *otf2_dir;    /* --otf2 DIR: an OTF2 archive */
  const char *analyze_out; /* --analyze[=FILE.json]: "-" = the text report only */
  const char *html_out;    /* --html FILE: the HTML report */
  bool no_align;           /* --no-align: each host on its own CLOCK_BOOTTIME */
  const char *part_out;    /* --part FILE: pack the inputs (in/part.c), convert nothing */
  bool merge;              /* --merge: the inputs include parts */
} cv_options;

typedef struct cv_sink cv_sink;

/* A preparation pass: a sink's work on each line of a trace that needs no
 * state, done by the trace reader's threads beside the line
 * (rtg_reader_opts.prepare in trace_reader.h: fn, arg and scale are its
 * prepare, prepare_arg and prepare_scale). */
struct rtg_line;
struct rtg_line_space;
typedef struct cv_prepare {
  size_t (*fn)(struct rtg_line *l, size_t used, struct rtg_line_space *space, void *arg);
  void *arg;
  unsigned scale;
  /* it writes the line's times: while hosts' times move (in/hosts.c) only
   * when it applies cv_ctx.prep_clock, and only for files whose host is
   * known before they are read; the events of a line of another host then
   * drop what it made */
  bool timed;
} cv_prepare;

/* The maps of the hosts of the files' lines, for a prepare hook that
 * writes their times while hosts' times move: set by the reader
 * (in/trace.c) before a reader of several files starts, by the file's
 * index there (rtg_line.file), read by the hook on the reader's threads.
 * files NULL, or an entry NULL: times as recorded.  applied: the preparing
 * sink's hook applies it (set by the sink in its prepare slot). */
typedef struct cv_prep_clock {
  const rtg_clock_host *const *files;
  uint64_t lift_ns;
  bool applied;
} cv_prep_clock;

enum cv_pass {
  CV_PASS_MAIN,   /* every event to every sink */
  CV_PASS_SPAN,   /* no sinks: the span of the events (for N% windows, --zero) */
  CV_PASS_SECOND, /* quiet, uncounted, no window: to the sinks that asked for it */
};

/* A string interned lately: cv_intern's cache (and the HTML report's of
 * arguments), so that a name met again costs a memcmp, not a probe of the
 * table.  The slot: every 8 bytes of the string folded (rotated and xored,
 * the last 8 overlapping), then mixed: names of one family often differ in
 * one place only (hsa_signal_load_scacquire and hsa_signal_wait_scacquire,
 * kernel_12<float, 3> and kernel_40<float, 6>). */
typedef struct cv_cached {
  const char *s; /* the table's copy */
  uint32_t len, id;
} cv_cached;
#define CV_CACHE 4096
static inline size_t cv_cache_slot(const char *s, size_t n) {
  uint64_t h = n, w = 0;
  if (n < 8) {
    memcpy(&w, s, n);
    h ^= w;
  } else {
    for (size_t i = 0; i + 8 < n; i += 8) {
      memcpy(&w, s + i, 8);
      h = (h << 7 | h >> 57) ^ w;
    }
    memcpy(&w, s + n - 8, 8);
    h = (h << 7 | h >> 57) ^ w;
  }
  return (size_t)(rtg_mix64(h) >> 52); /* CV_CACHE = 2^12 */
}

typedef struct cv_ctx {
  cv_options opt;
  rtg_strtab *strs;               /* every interned name */
  cv_cached name_cache[CV_CACHE]; /* cv_intern's */
  uint32_t *hosts;                /* strtab ids, index = host index */
  uint32_t nhosts;
  cv_proc *procs;
  uint32_t nprocs, cap_procs;
  rtg_u64map proc_index; /* (host << 32 | pid) -> proc index */
  uint64_t counts[CVC_COUNT];
  uint64_t window_start, window_end; /* ns, inclusive; 0/UINT64_MAX = all */
  uint64_t time_base;                /* subtracted from output times (--zero) */
  uint64_t first_ns, last_ns;        /* span of the events dispatched */
  enum cv_pass pass;
  /* CLOCK_REALTIME - CLOCK_BOOTTIME from a header, to place strace times
   * (with hosts aligned: the reference's, on the common axis) */
  int64_t realtime_minus_boot;
  bool have_clock_offset;
  /* hosts on one time axis (in/hosts.c): the map of each host's boot
   * clock, made before the first pass; clocks.moves says whether any
   * time moves.  clock_of_host: host index -> its map, as looked up. */
  rtg_clockmap clocks;
  bool clocks_made;
  const rtg_clock_host **clock_of_host;
  uint32_t nclock_of_host;
  /* input files, read once per pass */
  const char **inputs;
  int ninputs;
  FILE *report; /* where -v/-w/--summary/--gaps text goes */
  struct {
    const cv_sink *ops;
    void *state;
  } sinks[12];
  int nsinks;
  /* the sink that prepares lines (cv_sink.prepare): its index + 1, 0 none */
  int prepare_sink;
  cv_prepare prepare;
  cv_prep_clock prep_clock;
  /* duplicate inputs, per pass over the inputs (in/trace.c) */
  rtg_u64map seen_files;   /* (device, inode) of the inputs read */
  rtg_u64map seen_headers; /* fingerprints of the header records read */
  /* -k: strtab id of a mangled kernel name -> id of its demangled name,
   * from the dispatch records' demangled: fields (in/trace.c) */
  rtg_u64map demangled;
  /* the kernels' resources (KERNEL records) of every pass, in reading
   * order; those with main_pass set are each kernel once */
  cv_kinfo **kinfos;
  uint32_t nkinfos, cap_kinfos;
  /* the analysis the outputs that need it share (analyze/shared.c) */
  struct an_state *analysis;
  /* the memory records of every process (shared/memuse.h); NULL: none */
  struct cv_mem *mem;
  /* MPI calls across ranks (in/mpi.c), when some input has any */
  struct cv_mpi *mpi;
  /* input files whose records disagree with their summary, or that have
   * none (in/trace.c: warned), and files with no trace line at all */
  uint32_t unhealthy, not_traces;
} cv_ctx;

/* An output: open it, feed it events, close it (writing the output).  Each
 * sink file ends with its ops, named by member. */
struct cv_sink {
  const char *name;
  void *(*open)(cv_ctx *ctx); /* NULL after printing why */
  void (*event)(void *st, const cv_event *ev);
  /* Merged Chrome JSON events (cJSON objects), for sinks that take them. */
  void (*json_event)(void *st, const void *cjson_item);
  /* A sink that makes part of its output from the lines of a trace before
   * they are events (on the trace reader's threads, in the main pass) has
   * prepare: it fills *p once open.  The events of those lines then carry
   * what it made (cv_event.prep) to this sink alone.  One sink prepares:
   * the first opened that has the slot. */
  void (*prepare)(void *st, cv_prepare *p);
  /* A sink that needs a second pass over the inputs (--gaps: the host
   * calls during the largest gaps, known once every op was seen) has
   * second_pass: the driver then calls first_pass_end (if any), reads the
   * inputs again and hands it every event of that pass. */
  void (*first_pass_end)(void *st);
  void (*second_pass)(void *st, const cv_event *ev);
  bool (*close)(void *st); /* false after printing why */
};

extern const cv_sink cv_chrome_sink, cv_stats_sink, cv_gaps_sink, cv_sqlite_sink,
    cv_workgroups_sink, cv_perfetto_sink;
extern const cv_sink cv_csv_sink;  /* out/csv/csv_rocprofv3.c */
extern const cv_sink cv_otf2_sink; /* out/otf2/otf2.c (a stub saying why when built without OTF2) */
extern const cv_sink cv_analyze_sink; /* analyze/sink.c */
extern const cv_sink cv_html_sink;    /* out/html/html.c */

/* convert.c */
uint32_t cv_intern(cv_ctx *ctx, const char *s);
const char *cv_str(const cv_ctx *ctx, uint32_t id);
uint32_t cv_host(cv_ctx *ctx, const char *host);
uint32_t cv_proc_get(cv_ctx *ctx, uint32_t host, uint32_t pid);
void cv_dispatch(cv_ctx *ctx, cv_event *ev);
/* Opens a sink and adds it to ctx; false after the sink said why not. */
bool cv_add_sink(cv_ctx *ctx, const cv_sink *ops);
/* Closes every sink (writing its output); false when one failed. */
bool cv_close_sinks(cv_ctx *ctx);
/* Frees what the context holds (processes, names, tables); not ctx. */
void cv_ctx_free(cv_ctx *ctx);
/* "GPU2" or "GPU2 (gfx90a)": label of a device of a process. */
void cv_device_label(const cv_ctx *ctx, uint32_t proc, rtg_device device, char *buf, size_t cap);
/* The --gap-buckets. */
static inline rtg_gap_buckets cv_gap_buckets(const cv_ctx *ctx) {
  return (rtg_gap_buckets){ctx->opt.gap_buckets_us, (size_t)ctx->opt.ngap_buckets};
}

/* shared/stacks.c: a STACK or SYMBOL record of a process of host; the pcs of a
 * stack, symbolized where SYMBOL records allow, one frame per call of fn
 * (returns the number of frames). */
void cv_take_stack_or_symbol(cv_ctx *ctx, uint32_t host, const rtg_record *rec);
int cv_stack_frames(const cv_ctx *ctx, uint32_t proc, uint64_t stack,
                    void (*fn)(void *arg, const char *frame), void *arg);

/* shared/memuse.c: the memory records of every process in time order,
 * resolved (frees matched, bytes in use: shared/memuse.h), once, before
 * the sinks close (later calls return the same); NULL when the inputs had
 * none.  cv_mem_free: with the context. */
struct cv_mem *cv_mem_resolve(cv_ctx *ctx);
void cv_mem_free(cv_ctx *ctx);

/* passes.c: every input, in the passes the sinks need (false when one
 * could not be read); the span of the events, before the sinks open. */
bool cv_read_inputs(cv_ctx *ctx);
void cv_measure_span(cv_ctx *ctx);

/* in/trace.c: read inputs of any kind (traces, logs, Chrome JSON) in
 * their order; false when one could not be opened or read.  cv_read_inputs_of
 * reads the trace files that follow one another with one trace reader, its
 * threads reading on into the next files while the caller's thread takes
 * the lines in order (a few files open at a time); cv_read_input reads
 * one.  cv_pass_begin before each pass over all inputs (duplicate
 * detection). */
void cv_pass_begin(cv_ctx *ctx);
bool cv_read_inputs_of(cv_ctx *ctx, const char *const *paths, int n);
bool cv_read_input(cv_ctx *ctx, const char *path);
/* in/hosts.c: the map of every host's boot clock onto one axis, from the
 * clock pairs of the inputs (once; nothing with --no-align); -v prints it.
 * cv_host_clock: the map of a host (by index), for rtg_clockmap_apply with
 * clocks.lift_ns; only while clocks.moves.  cv_clock_text, cv_clock_json:
 * each host's offset, uncertainty and drift, when several hosts had clock
 * pairs (the JSON as ,"hosts":[...]); for -v (verbose), whenever there are
 * several hosts. */
void cv_align_hosts(cv_ctx *ctx);
const rtg_clock_host *cv_host_clock(cv_ctx *ctx, uint32_t host);
/* The map of a host by name (changes nothing: any thread may ask). */
const rtg_clock_host *cv_host_clock_named(const cv_ctx *ctx, const char *name);
void cv_clock_text(const cv_ctx *ctx, FILE *f, bool verbose);
void cv_clock_json(const cv_ctx *ctx, FILE *f);
/* in/part.c: --part: the inputs packed into one file (an exit status);
 * --merge: each part among the inputs replaced by the files it holds (read
 * through src/common/inrange.h): -1 to go on, else an exit status after
 * saying why. */
int cv_write_part(cv_ctx *ctx, const char *out);
int cv_open_parts(cv_ctx *ctx);
/* The parts among the inputs (after cv_open_parts), each with its state's
 * index line (in/partstate.c); *others: some input is no part.
 * cv_part_records_bytes: the bytes of the files the parts hold. */
typedef struct cv_part_state {
  const char *part;
  bool has, clean; /* an RTG-PART-STATE line; clean:1 */
  unsigned version;
  uint64_t off, size, tables, events;
  char why[128]; /* clean:0's */
} cv_part_state;
const cv_part_state *cv_part_states(size_t *n, bool *others);
uint64_t cv_part_records_bytes(void);
/* in/partstate.c: --part: the state of --summary and --stats written to f
 * (at offset at of the part) from a reading of the inputs, its index line
 * in line; false when it could not start.  --merge (the parts ps[0..n),
 * others and records_bytes as cv_part_states and cv_part_records_bytes
 * give them): with --summary or --stats alone and every part holding a
 * clean state, the events from the states to the sinks (1; 0 after saying
 * why one failed); -1: the records are to be read (-v says why). */
bool cv_part_state_write(cv_ctx *ctx, FILE *f, uint64_t at, char *line, size_t cap);
int cv_merge_state(cv_ctx *ctx, const cv_part_state *ps, size_t n, bool others,
                   uint64_t records_bytes);
/* in/mpi.c: MPI calls across ranks.  cv_mpi_args: an MPI record's
 * identification as "key:value" words (comm: seq: size: rank: peer: root:
 * bytes: req: nreq: done: polls: busy:), cut to cap.  cv_mpi_read (hosts.c, before the
 * first pass): the MPI calls of the files whose summaries count some, and
 * with gpu_too their GPU ops' busy time.  cv_mpi_refine (after the pairs
 * are solved): hosts with MPI_Barrier, MPI_Allreduce, MPI_Allgather,
 * MPI_Alltoall or MPI_Reduce_scatter_block instances matched
 * with the reference's take the offset those bound (rtg_clockmap_bound).
 * cv_mpi_text, cv_mpi_json (--analyze): the stragglers of the collectives,
 * and each rank's time in MPI, on the GPU and at host work; nothing
 * without MPI calls; the JSON as ,"mpi":{...}. */
void cv_mpi_args(const rtg_record *rec, char *buf, size_t cap);
/* An MPI record's end: start + dur, or a run of repeated tests' last end. */
uint64_t cv_mpi_end(const rtg_record *rec);
void cv_mpi_read(cv_ctx *ctx, const char *const *paths, int n, bool gpu_too);
void cv_mpi_refine(cv_ctx *ctx);
void cv_mpi_text(cv_ctx *ctx, FILE *f);
void cv_mpi_json(cv_ctx *ctx, FILE *f);
void cv_mpi_free(cv_ctx *ctx);
/* in/json.c: a Chrome JSON file's events, merged. */
bool cv_read_json(cv_ctx *ctx, const char *path);
/* in/tail.c: the SYMBOL and STACK records at the end of a file (the
 * tracer writes symbols when the process exits), so that stacks of events
 * before them can be symbolized in one pass.  cv_tail_scan finds them
 * (changing nothing: any thread may scan), cv_tail_apply takes them as
 * cv_prescan_tail would have (and frees them); cv_prescan_tail: both. */
typedef struct cv_tail_line {
  char *s;
  size_t len;
} cv_tail_line;
typedef struct cv_tail {
  bool read; /* the file was read: its host counts (host: its header's, or "") */
  char *host;
  cv_tail_line *lines; /* the records, in the order they are taken */
  size_t nlines, cap;
} cv_tail;
void cv_tail_scan(const char *path, cv_tail *t);
void cv_tail_apply(cv_ctx *ctx, cv_tail *t);
void cv_tail_free(cv_tail *t);
void cv_prescan_tail(cv_ctx *ctx, const char *path);
/* in/strace.c: strace/ltrace -tttT lines: -1 not such a line, 0
 * consumed (an unfinished call, or warned about), 1 a call in *out
 * (strings valid until the next call). */
typedef struct cv_strace cv_strace;
cv_strace *cv_strace_new(void);
void cv_strace_free(cv_strace *s);
int cv_strace_line(cv_ctx *ctx, cv_strace *s, uint32_t proc, char *line, size_t len,
                   rtg_diag_file *df, uint64_t lineno, cv_event *out);

/* options.c */
int cv_parse_options(cv_ctx *ctx, int argc, char **argv, int *first_input);
/* "123.5" (us) or "25%": false when malformed. */
bool cv_parse_time_arg(const char *s, double *value, bool *percent);

#endif
