/* Settings: the RTG_* environment variables (and HCC_PROFILE), read once at
 * load (config.c), the API filters, and the diagnostics on stderr. */
#ifndef RTG_CONFIG_H
#define RTG_CONFIG_H

#include "visibility.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A comma-separated filter as RTG_*_API_FILTER documents: "all" or
 * substrings; for HSA also "core" and "ext". */
typedef struct rtg_filter {
  const char *spec; /* the variable's text, or NULL when unset */
} rtg_filter;

typedef struct rtg_config {
  const char *filename;      /* RTG_FILENAME, before %hostname%/%rank%/pid */
  char path[4096];           /* the resolved output path, pid appended */
  const char *trace_list;    /* RTG_TRACE_LIST: the launcher's list of trace paths, or NULL */
  rtg_filter hsa_filter;     /* RTG_HSA_API_FILTER */
  rtg_filter hsa_filter_out; /* RTG_HSA_API_FILTER_OUT */
  rtg_filter hip_filter;     /* RTG_HIP_API_FILTER (default all) */
  rtg_filter hip_filter_out; /* RTG_HIP_API_FILTER_OUT */
  bool hsa_api;              /* any HSA API tracing requested */
  bool hsa_host_dispatch;    /* RTG_HSA_HOST_DISPATCH */
  bool hsa_poll_each;        /* RTG_HSA_POLL=each: no coalescing of repeated HSA calls */
  bool mpi_poll_each;        /* RTG_MPI_POLL=each: no coalescing of repeated MPI tests */
  bool hip_api;              /* HIP API tracing on (RTG_HIP_API_FILTER not empty) */
  bool hip_args;             /* RTG_HIP_API_ARGS */
  const char *hip_path;      /* RTG_HIP_PATH: "got", "callback", or NULL: the release's own */
  bool profile;              /* RTG_PROFILE: kernels and barriers */
  bool profile_copy;         /* RTG_PROFILE_COPY */
  int hcc_profile;           /* HCC_PROFILE (2: legacy profile: lines) */
  int verbose;               /* RTG_VERBOSE */
  bool roctx;                /* RTG_ROCTX (default on) */
  bool mpi;                  /* RTG_MPI (default on: when libmpi is loaded) */
  bool kernel_rename;        /* RTG_KERNEL_RENAME: name kernels after the innermost range */
  const char *backtrace;     /* RTG_BACKTRACE: substrings[,min_ns] or NULL */
  int exit_wait_ms;          /* RTG_EXIT_WAIT_MS: bound on waiting for GPU work at exit */
  int throttle_ms;           /* RTG_THROTTLE_MS: a submitter held back with no op landing */
  int buffer_mb;             /* RTG_BUFFER_MB: cap of all threads' buffers together */
  bool writer_stall;         /* RTG_WRITER_STALL: no draining until a producer waits (tests) */
  bool buffer_drop;          /* RTG_BUFFER_FULL=drop: at the cap drop (and count), not wait */
  bool tsc;                  /* RTG_TSC, and the machine allows it: API call stamps are TSC ticks */
  bool gpu_deps;             /* RTG_GPU_DEPS: GPU waits on raised signals wait on the GPU alone */
} rtg_config;

RTG_HIDDEN extern rtg_config rtg_cfg;

/* Does name pass filter `in` (NULL spec = `dflt`) and not `out`? */
RTG_HIDDEN bool rtg_filter_match(const rtg_filter *in, const rtg_filter *out, const char *name,
                                 bool dflt);

/* As rtg_filter_match, where the HSA tokens "core"/"ext"/"image"/
 * "finalizer" match the function's table (category). */
RTG_HIDDEN bool rtg_filter_match_cat(const rtg_filter *in, const rtg_filter *out, const char *name,
                                     const char *category, bool dflt);

/* Read the environment into rtg_cfg, print it (RTG_VERBOSE>=1), and
 * resolve the output path of process pid (%hostname%, %rank%, %pid%, .pid). */
RTG_HIDDEN void rtg_config_read(void);
RTG_HIDDEN void rtg_config_print(void);
RTG_HIDDEN void rtg_config_path(char *out, size_t cap, uint32_t pid);
RTG_HIDDEN const char *rtg_rank(void); /* MPI/Slurm rank variable or NULL */

/* Diagnostics on stderr, prefixed "rtg: ", only when RTG_VERBOSE >= level
 * (level 0: always). Not for the hot path. */
RTG_HIDDEN void rtg_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
