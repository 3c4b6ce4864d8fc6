/* Internal interfaces of rtg_tracer.so shared by its parts: the record
 * sink (per-thread buffers), the clock, correlation ids and the settings.
 * The HSA side (hsa_*.c, queue interception, copies) and the HIP/ROCTx side
 * (hip_*.c, roctx*.c, backtrace*.c) only meet here. */
#ifndef RTG_TRACER_H
#define RTG_TRACER_H

#include "rtg/record.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RTG_HIDDEN __attribute__((visibility("hidden")))

/* ------------------------------------------------------------- settings */

/* A comma-separated filter as RTG_*_API_FILTER documents: "all" or
 * substrings; for HSA also "core" and "ext". */
typedef struct rtg_filter {
  const char *spec; /* the variable's text, or NULL when unset */
} rtg_filter;

typedef struct rtg_config {
  const char *filename;      /* RTG_FILENAME, before %hostname%/%rank%/pid */
  char path[4096];           /* the resolved output path, pid appended */
  rtg_filter hsa_filter;     /* RTG_HSA_API_FILTER */
  rtg_filter hsa_filter_out; /* RTG_HSA_API_FILTER_OUT */
  rtg_filter hip_filter;     /* RTG_HIP_API_FILTER (default all) */
  rtg_filter hip_filter_out; /* RTG_HIP_API_FILTER_OUT */
  bool hsa_api;              /* any HSA API tracing requested */
  bool hsa_host_dispatch;    /* RTG_HSA_HOST_DISPATCH */
  bool hip_api;              /* HIP API tracing on (RTG_HIP_API_FILTER not empty) */
  bool hip_args;             /* RTG_HIP_API_ARGS */
  bool profile;              /* RTG_PROFILE: kernels and barriers */
  bool profile_copy;         /* RTG_PROFILE_COPY */
  int hcc_profile;           /* HCC_PROFILE (2: legacy profile: lines) */
  int verbose;               /* RTG_VERBOSE */
  bool roctx;                /* RTG_ROCTX (default on) */
  bool kernel_rename;        /* RTG_KERNEL_RENAME: name kernels after the innermost range */
  const char *backtrace;     /* RTG_BACKTRACE: substrings[,min_ns] or NULL */
  int exit_wait_ms;          /* RTG_EXIT_WAIT_MS: bound on waiting for GPU work at exit */
  int buffer_mb;             /* RTG_BUFFER_MB: cap of all threads' buffers together */
  bool buffer_drop;          /* RTG_BUFFER_FULL=drop: at the cap drop (and count), not wait */
} rtg_config;

RTG_HIDDEN extern rtg_config rtg_cfg;

/* Does name pass filter `in` (NULL spec = `dflt`) and not `out`? */
RTG_HIDDEN bool rtg_filter_match(const rtg_filter *in, const rtg_filter *out, const char *name,
                                 bool dflt);

/* As rtg_filter_match, where the HSA tokens "core"/"ext"/"image"/
 * "finalizer" match the function's table (category). */
RTG_HIDDEN bool rtg_filter_match_cat(const rtg_filter *in, const rtg_filter *out, const char *name,
                                     const char *category, bool dflt);

/* config.c: read the environment into rtg_cfg, print it (RTG_VERBOSE>=1),
 * and resolve the output path of process pid (%hostname%, %rank%, .pid). */
RTG_HIDDEN void rtg_config_read(void);
RTG_HIDDEN void rtg_config_print(void);
RTG_HIDDEN void rtg_config_path(char *out, size_t cap, uint32_t pid);
RTG_HIDDEN const char *rtg_rank(void); /* MPI/Slurm rank variable or NULL */

/* ---------------------------------------------------------------- clock */

/* CLOCK_BOOTTIME nanoseconds: the clock of HSA's profiling timestamps. */
RTG_HIDDEN uint64_t rtg_now(void);

/* ----------------------------------------------------------- the sink */

/* Append one record to the calling thread's buffer.  No locks, no stdio, no
 * allocation on the fast path; when the buffer cannot take the record it is
 * counted as lost, never blocking the application.  Safe in any thread,
 * including ROCR's and HIP's internal threads. */
RTG_HIDDEN void rtg_emit(const rtg_record *r);

/* The same record made later: the calling thread only copies len bytes of
 * payload; `fill` turns them into the record on the writer thread (or in
 * the fatal-signal path: no stdio, malloc or locks there), with the pid and
 * thread id of the thread that emitted.  What the record points to must be
 * in the payload or live until process end.  For hot paths (HIP calls). */
typedef bool (*rtg_record_fill)(rtg_record *r, const void *payload, size_t len, uint32_t pid,
                                uint64_t tid);
RTG_HIDDEN void rtg_emit_deferred(rtg_record_fill fill, const void *payload, size_t len);
/* The same for a record that is never dropped and never waits for buffer
 * space (GPU ops: made where the application's signal is completed). */
RTG_HIDDEN void rtg_emit_deferred_keep(rtg_record_fill fill, const void *payload, size_t len);

/* pid and kernel thread id of the caller, cached per thread. */
RTG_HIDDEN uint32_t rtg_pid(void);
RTG_HIDDEN uint64_t rtg_tid(void);

/* sink.c: open the output (header record first) and start the writer
 * thread; write the final summary and close.  rtg_sink_flush_all writes
 * every thread's buffered records now (also used by the fatal-signal path). */
RTG_HIDDEN bool rtg_sink_open(void);
RTG_HIDDEN void rtg_sink_close(void);
RTG_HIDDEN void rtg_sink_flush_all(void);
RTG_HIDDEN uint64_t rtg_counter_get(int c);

/* Counters written into the final summary record. */
typedef enum rtg_counter {
  RTG_CNT_DISPATCHES,
  RTG_CNT_BARRIERS,
  RTG_CNT_COPIES,
  RTG_CNT_HSA_CALLS,
  RTG_CNT_HIP_CALLS,
  RTG_CNT_LOST,          /* records that found no buffer space */
  RTG_CNT_LOST_GPU,      /* GPU ops whose times could not be read */
  RTG_CNT_UNFINISHED,    /* GPU ops still in flight at exit */
  RTG_CNT_OTHER_PACKETS, /* AQL packets passed through untouched */
  RTG_CNT_WRITE_ERRORS,
  RTG_CNT_COUNT
} rtg_counter;
RTG_HIDDEN void rtg_count(rtg_counter c, uint64_t n);

/* ------------------------------------------------------- correlation */

/* A process-wide id that links an API call to the GPU work it caused.
 * The HIP layer sets the calling thread's current id for the duration of
 * a call; the queue interceptor stamps it on the packets submitted from that
 * thread meanwhile (0 when none). */
RTG_HIDDEN uint64_t rtg_corr_next(void);
RTG_HIDDEN void rtg_corr_set(uint64_t id); /* 0 clears */
RTG_HIDDEN uint64_t rtg_corr_get(void);

/* The innermost ROCTx range name of the calling thread, or NULL
 * (for RTG_KERNEL_RENAME). */
RTG_HIDDEN const char *rtg_roctx_current_range(void);

/* Recursion guard: true while the calling thread is inside the tracer, so
 * HSA calls the tracer itself makes are not traced. */
RTG_HIDDEN bool rtg_enter(void);
RTG_HIDDEN void rtg_leave(void);

/* Diagnostics on stderr, prefixed "rtg: ", only when RTG_VERBOSE >= level
 * (level 0: always). Not for the hot path. */
RTG_HIDDEN void rtg_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ------------------------------------------------- HIP / ROCTx side */

/* Called from OnLoad after the settings are read and the sink is open, and
 * from OnUnload / process exit before the final flush (hip_api.c). */
RTG_HIDDEN void rtg_hip_init(void);
RTG_HIDDEN void rtg_hip_fini(void);

#endif
