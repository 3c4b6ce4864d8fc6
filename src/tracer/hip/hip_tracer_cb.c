/* HIP API tracing on ROCm 5.3.1 and later: hipRegisterTracerCallback
 * (facts: ROCm/hipamd rocm-5.3.1.. src/hip_prof_api.h, ROCm/clr hipamd/src/
 * hip_prof_api.h and hip_intercept.cpp through 6.2).
 *
 * HIP keeps one function pointer, report(domain, op, data).  At the entry of
 * every API call it passes `data` = a hip_api_trace_data_t on its own stack,
 * uninitialised:
 *   struct { hip_api_data_t api_data;        // release-dependent size
 *            uint64_t phase_enter_timestamp; uint64_t phase_data;
 *            void (*phase_enter)(op, data*); void (*phase_exit)(op, data*); }
 * report returns 0 to trace the call; HIP then copies
 * api_data.correlation_id, fills api_data.args and calls phase_enter, and
 * phase_exit when the call returns.  Both pointers must be set by report.
 * sizeof(hip_api_data_t) changes by release, so the offsets come from the
 * release table (hip_ops.c, measured by tests/abi/hip_layouts.sh); a release
 * we do not know is not traced on this path rather than written out of
 * bounds.
 *
 * The hand-over (the default; RTG_HIP_PATH=callback keeps the callback):
 * while a tracer callback is registered, HIP reports the activity of every
 * command, and HIP 7.2's graph launches and host functions then crash the
 * program (SIGABRT in HIP's async handler, or SIGSEGV in a captured host
 * function, with a tool whose callback traces nothing as well).  So, as on
 * HIP <= 5.3 (hip_cb_legacy.c), the callback traces only the call during
 * which the runtime loaded the tracer, which nothing else can see, and the
 * GOT path (hip_got.c) is installed at once for every later call; when that
 * call ends the callback is unregistered (a null callback clears HIP's
 * report_activity).  Meanwhile a call that came through a trampoline is the
 * GOT's (rtg_thread_state.hip_tramp), so no call is recorded twice. */
#define _GNU_SOURCE
#include "hip_internal.h"

#include <dlfcn.h>
#include <string.h>

#define DEPTH 16

typedef void (*phase_fn)(uint32_t op, void *data);
typedef int (*report_fn)(uint32_t domain, uint32_t op, void *data);
typedef void (*register_fn)(report_fn);

static __thread rtg_hip_call calls[DEPTH];
static __thread int depth;
static size_t tail_off; /* offset of phase_enter_timestamp = sizeof(hip_api_data_t) */
static register_fn reg;
static volatile int stopped;

/* The hand-over's stage (atomic); BOTH: the callback back for the calls
 * that bypass the GOT. */
enum { KEEP, LOADING, GOT_ONLY, BOTH };
static int stage = KEEP;
static int cb_frames;                /* frames the callback began while LOADING (atomic) */
static __thread bool counted[DEPTH]; /* this frame is one of them */
static const void *loader;           /* the thread state of the thread that loaded us */

static void hand_over(void);

static void phase_enter(uint32_t op, void *data) {
  uint64_t slot;
  memcpy(&slot, (char *)data + tail_off + 8, sizeof slot);
  if (slot >= DEPTH) return;
  rtg_hip_begin(&calls[slot], op);
  if (op == rtg_hip.graph_launch_op)
    rtg_hip_graph_begin(&calls[slot], (char *)data + RTG_HIP_DATA_ARGS_OFF);
}

static void phase_exit(uint32_t op, void *data) {
  uint64_t slot;
  memcpy(&slot, (char *)data + tail_off + 8, sizeof slot);
  if (slot < DEPTH) rtg_hip_end(&calls[slot], (char *)data + RTG_HIP_DATA_ARGS_OFF, -1);
  if (depth > 0) depth--;
  if (slot < DEPTH && counted[slot]) {
    counted[slot] = false;
    __atomic_sub_fetch(&cb_frames, 1, __ATOMIC_ACQ_REL);
    if (!depth && &rtg_tls == loader) hand_over(); /* the loading call ended */
  }
}

static int report(uint32_t domain, uint32_t op, void *data) {
  if (domain != RTG_HIP_DOMAIN_API || stopped || rtg_inside() || depth >= DEPTH)
    return 1; /* not traced: HIP calls neither phase function */
  int st = __atomic_load_n(&stage, __ATOMIC_ACQUIRE);
  if (st == GOT_ONLY) return 1; /* (a call that began as it went) */
  if (st != KEEP && rtg_tls.hip_tramp) {
    /* the GOT's; and with no frame of the callback's left, the loading
     * call is over (or the tracer was not loaded in one): hand over */
    if (st == LOADING && !__atomic_load_n(&cb_frames, __ATOMIC_ACQUIRE)) hand_over();
    return 1;
  }
  if (!rtg_hip_op_traced(op)) return 1;
  char *d = data;
  uint64_t slot = (uint64_t)depth++;
  counted[slot] = st == LOADING;
  if (counted[slot]) __atomic_add_fetch(&cb_frames, 1, __ATOMIC_ACQ_REL);
  uint64_t zero = 0;
  phase_fn enter = phase_enter, exit_ = phase_exit;
  memcpy(d, &zero, sizeof zero); /* api_data.correlation_id: HIP's own, unused */
  memcpy(d + RTG_HIP_DATA_PHASE_OFF, &zero, 4);
  memcpy(d + tail_off, &zero, sizeof zero);
  memcpy(d + tail_off + 8, &slot, sizeof slot); /* phase_data: our frame */
  memcpy(d + tail_off + 16, &enter, sizeof enter);
  memcpy(d + tail_off + 24, &exit_, sizeof exit_);
  return 0;
}

rtg_path_start rtg_hip_tracer_cb_start(void *lib) {
  *(void **)&reg = dlsym(lib, "hipRegisterTracerCallback");
  if (!reg) return RTG_PATH_ABSENT;
  if (!rtg_hip.rel->data_size) {
    rtg_log(0,
            "HIP release with last op %u is unknown: the layout of its trace data is not, "
            "so HIP calls are not traced",
            rtg_hip.rel->last_op);
    return RTG_PATH_REFUSED;
  }
  tail_off = rtg_hip.rel->data_size;
  stopped = 0;
  bool keep = rtg_cfg.hip_path && !strcmp(rtg_cfg.hip_path, "callback");
  if (!keep) {
    loader = &rtg_tls;
    __atomic_store_n(&stage, LOADING, __ATOMIC_RELEASE);
    rtg_hip_got_install(lib);
    rtg_hip.path = "tracer-callback+got";
  }
  reg(report);
  return RTG_PATH_TAKEN;
}

/* A kernel or copy began outside any traced call after the hand-over
 * (rtg_corr_missing): calls go around the GOT.  The callback comes back for
 * the calls the trampolines do not see, as on HIP <= 5.3.  Once. */
static void calls_around_got(void) {
  if (!rtg_hip_got_bypassed(calls_around_got)) return;
  __atomic_store_n(&stage, BOTH, __ATOMIC_RELEASE);
  reg(report);
  rtg_log(0,
          "HIP calls bypass the GOT (a kernel or copy began outside any traced call, e.g. through "
          "a pointer dlsym gave before the tracer loaded): HIP's tracer callback traces them from "
          "now on; such calls before this are not in the trace (RTG_HIP_PATH=callback traces "
          "them all; HIP then reports every command, which crashes HIP 7.2's graph launches)");
}

/* The hand-over's end: the callback goes, the GOT traces on.  Once; on
 * any thread.  Calls in flight keep their phase_exit (HIP copied it). */
static void hand_over(void) {
  int from = LOADING;
  if (!__atomic_compare_exchange_n(&stage, &from, GOT_ONLY, false, __ATOMIC_ACQ_REL,
                                   __ATOMIC_ACQUIRE))
    return;
  reg(NULL);
  rtg_log(1, "HIP API tracing: the loading call ended; the tracer callback removed, the GOT "
             "traces on");
  __atomic_store_n(&rtg_corr_missing, calls_around_got, __ATOMIC_RELEASE);
}

void rtg_hip_tracer_cb_stop(void) {
  /* Calls in flight still get their phase_exit (the pointers stay valid as
   * long as the tracer is loaded); new calls are no longer traced. */
  stopped = 1;
}
