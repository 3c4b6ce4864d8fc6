/* Interfaces between the parts of the HIP side of rtg_tracer.so:
 *   hip_paths.c         finding HIP, choosing the path of its release
 *   hip_call.c          the per-call bookkeeping every path shares
 *   hip_graph.c         hipGraphLaunch: the graph exec number its GPU ops carry
 *   hip_ops.c           per-release op id -> name tables (hip_ops_table.h data)
 *   hip_args.c          decoding of the hip_api_data_t argument union
 *   hip_cb_legacy.c     ROCm <= 5.3.0: hipRegisterApiCallback/ActivityCallback
 *   hip_tracer_cb.c     ROCm 5.3.1+:   hipRegisterTracerCallback
 *   hip_dispatch_table.c ROCm 6.2+:    HipDispatchTable via rocprofiler-register
 *   hip_trampoline.c    the dispatch-table path's signature-independent wrappers
 *   hip_got.c           those wrappers in other objects' GOTs (RTG_HIP_PATH=got,
 *                       and <= 5.3.0 after the loading call)
 * Nothing here is linked against libamdhip64: every HIP symbol is looked up
 * with dlsym at run time, so the tracer still loads in pure HSA programs. */
#ifndef RTG_HIP_INTERNAL_H
#define RTG_HIP_INTERNAL_H

#include "core/paths.h"
#include "core/tracer.h"

#include <stddef.h>
#include <stdint.h>

/* activity_domain_t value of the HIP API domain (prof_protocol.h, unchanged
 * since ROCm 4). */
#define RTG_HIP_DOMAIN_API 3

/* hip_api_data_t starts {uint64 correlation_id; uint32 phase; union args}
 * in every release 5.2..6.2, 6.4 and 7.2 (checked by tests/abi/hip_layouts.sh). */
#define RTG_HIP_DATA_PHASE_OFF 8
#define RTG_HIP_DATA_ARGS_OFF 16

/* ------------------------------------------------------ release tables */

/* One family of ROCm releases that share the HIP op id table. */
typedef struct rtg_hip_release {
  const char *name;         /* "5.2", "5.3-5.4", ... */
  uint32_t last_op;         /* HIP_API_ID_LAST: unique per family */
  uint32_t data_size;       /* sizeof(hip_api_data_t) on the 5.3.1+ path */
  const char *const *names; /* [0..last_op], NULL where no op */
} rtg_hip_release;

/* The family whose last op id is `last`, or NULL. */
RTG_HIDDEN const rtg_hip_release *rtg_hip_release_by_last(uint32_t last);
/* Every family, NULL-terminated (for tests). */
RTG_HIDDEN const rtg_hip_release *const *rtg_hip_releases(void);

/* --------------------------------------------------------- bookkeeping */

/* The tables chosen at init: names of ops, and which are traced. */
typedef struct rtg_hip_state {
  const rtg_hip_release *rel;
  const char *path;        /* the path's name (hip_paths.c), NULL: none yet */
  bool callback_path;      /* it is a callback path: tables arriving later are left alone */
  uint8_t enabled[1024];   /* per op id: traced (filter passed) */
  uint8_t decoder[1024];   /* per op id: argument decoder (hip_args.c) */
  uint8_t backtrace[1024]; /* per op id: RTG_BACKTRACE selected it */
  /* HIP helpers resolved with dlsym, NULL when absent */
  const char *(*kernel_name_ref)(const void *hip_function);
  const char *(*kernel_name_by_ptr)(const void *host_function, const void *stream);
  int (*peek_at_last_error)(void);
  uint32_t graph_launch_op; /* hipGraphLaunch's op id, 0: none */
} rtg_hip_state;

RTG_HIDDEN extern rtg_hip_state rtg_hip;

static inline int rtg_hip_op_traced(uint32_t op) {
  return op < sizeof(rtg_hip.enabled) && rtg_hip.enabled[op];
}

static inline const char *rtg_hip_op_name(uint32_t op) {
  const rtg_hip_release *r = rtg_hip.rel;
  return r && op <= r->last_op && r->names[op] ? r->names[op] : "hipUnknown";
}

/* One HIP call in flight on a thread. */
typedef struct rtg_hip_call {
  rtg_thread_state *ts; /* the calling thread's (&rtg_tls), taken once at begin */
  uint64_t start;
  uint64_t corr;
  uint64_t prev_corr;
  uint64_t ancestor; /* the thread's innermost call at entry (rtg_thread_state.inner), 0: none */
  const char *name;
  uint32_t op;
  uint8_t backtrace; /* RTG_BACKTRACE selected this function */
  uint8_t graph;     /* a hipGraphLaunch: the thread's graph is this call's */
} rtg_hip_call;

/* After rtg_hip_begin* of a hipGraphLaunch: exec_arg points to its first
 * argument (the hipGraphExec_t).  The kernels and copies the call submits
 * get the exec's number and their order in the launch (gpu_op.h). */
RTG_HIDDEN void rtg_hip_graph_begin(rtg_hip_call *c, const void *exec_arg);

/* At API entry: timestamp, new correlation id made current for the thread
 * (so the queue interceptor stamps it on the packets the call submits). */
RTG_HIDDEN void rtg_hip_begin(rtg_hip_call *c, uint32_t op);

/* The same for a function known by name (the dispatch-table path). */
RTG_HIDDEN void rtg_hip_begin_named(rtg_hip_call *c, const char *name, uint8_t backtrace);

/* At API exit: write the HIP record.  `args` points to the argument union
 * of a hip_api_data_t (NULL: no arguments known); ret < 0: unknown, then
 * asked of HIP with hipPeekAtLastError when HIP offers it. */
RTG_HIDDEN void rtg_hip_end(rtg_hip_call *c, const void *args, int64_t ret);

/* Like rtg_hip_end, with the kernel name already found and the argument
 * union args of decoder dec (0: no argument text), for the dispatch-table
 * path, which rebuilds the union from the call's registers. */
RTG_HIDDEN void rtg_hip_end_dec(rtg_hip_call *c, unsigned dec, const void *args, const char *kernel,
                                int64_t ret);

/* Does RTG_HIP_API_FILTER/_FILTER_OUT keep this function? */
RTG_HIDDEN int rtg_hip_name_traced(const char *name);

/* ------------------------------------------------------ argument decoding */

/* Choose the decoder of each op of the release by its name. */
RTG_HIDDEN void rtg_hip_args_setup(void);

/* The kernel a launch op starts, or NULL for any other op. */
RTG_HIDDEN const char *rtg_hip_args_kernel(uint32_t op, const void *args);

/* By decoder index (rtg_hip.decoder[op], or by name for the dispatch-table
 * path, which has no op ids): the decoder of a function name (0: none); */
RTG_HIDDEN unsigned rtg_hip_args_find(const char *name);
RTG_HIDDEN int rtg_hip_args_is_launch(unsigned dec); /* names a kernel */
/* the argument union of decoder dec rebuilt from a call's registers and
 * stack arguments; */
RTG_HIDDEN size_t rtg_hip_args_marshal(unsigned dec, const uint64_t gpr[6], const uint64_t *stack,
                                       unsigned char *image, size_t cap);
/* the fields of the argument union args copied to image (cap bytes), each
 * output read through the caller's pointer into its __val slot: on the
 * application's thread, when the call has returned.  Returns the bytes
 * used (0: no decoder, or more than cap); */
RTG_HIDDEN size_t rtg_hip_args_capture(unsigned dec, const void *args, unsigned char *image,
                                       size_t cap);
/* the argument text (no surrounding parentheses) of such an image of len
 * bytes into buf: on the writer's thread.  Returns the length; */
RTG_HIDDEN size_t rtg_hip_args_format_dec(char *buf, size_t cap, unsigned dec, const void *image,
                                          size_t len);
/* the kernel a launch starts, found with HIP's lookup. */
RTG_HIDDEN const char *rtg_hip_args_kernel_dec(unsigned dec, const void *args);

/* ----------------------------------------------------------- the paths */

/* Each path's start and stop (core/paths.h); the callback paths are given
 * the HIP runtime's library, with rtg_hip.rel and the ops chosen. */
RTG_HIDDEN rtg_path_start rtg_hip_legacy_start(void *hip_lib);
RTG_HIDDEN void rtg_hip_legacy_stop(void);
RTG_HIDDEN rtg_path_start rtg_hip_tracer_cb_start(void *hip_lib);
RTG_HIDDEN void rtg_hip_tracer_cb_stop(void);
/* 6.2+: taken when a HipDispatchTable was wrapped (rtg_hip_dispatch_table_take). */
RTG_HIDDEN rtg_path_start rtg_hip_dispatch_table_start(void *unused);
/* Put the original pointers back (process end). */
RTG_HIDDEN void rtg_hip_dispatch_table_stop(void);
/* Wrap a table rocprofiler-register handed over: "hip" or "hip_compiler". */
RTG_HIDDEN void rtg_hip_dispatch_table_take(const char *name, uint64_t version, uint64_t instance,
                                            void *table);
/* The table(s) wrapped, for RTG_VERBOSE. */
RTG_HIDDEN const char *rtg_hip_dispatch_table_describe(void);
/* A trampoline stub for HIP's function orig found by name, for a path that
 * finds HIP's functions itself (hip_got.c); NULL when none is left.  The
 * name must live as long as the process.  !record: its calls are not
 * recorded (filtered out), only counted in rtg_thread_state.hip_tramp. */
RTG_HIDDEN void *rtg_hip_slot_new(const char *name, void *orig, bool record);
/* The calls of every other object to HIP's functions go through their GOT
 * slots (and the pointers dlsym gives them) to trampolines, as for a
 * dispatch table.  Returns the functions traced. */
RTG_HIDDEN int rtg_hip_got_install(void *hip_lib);
/* A hand-over's rtg_corr_missing hook, self, was called: a kernel or copy
 * began outside any traced call, so calls go around the GOT.  true once
 * (the hook is taken off and the summary's hip_missed_until marked): the
 * caller brings its callbacks back. */
RTG_HIDDEN bool rtg_hip_got_bypassed(void (*self)(void));
/* RTG_HIP_PATH=got: that alone; no callback is registered, so HIP <= 5.3
 * does not turn on its profiling of every command. */
RTG_HIDDEN rtg_path_start rtg_hip_got_start(void *hip_lib);
RTG_HIDDEN void rtg_hip_got_stop(void);

#endif
