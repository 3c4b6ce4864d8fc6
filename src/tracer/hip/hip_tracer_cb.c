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
 * bounds. */
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

static void phase_enter(uint32_t op, void *data) {
  uint64_t slot;
  memcpy(&slot, (char *)data + tail_off + 8, sizeof slot);
  if (slot < DEPTH) rtg_hip_begin(&calls[slot], op);
}

static void phase_exit(uint32_t op, void *data) {
  uint64_t slot;
  memcpy(&slot, (char *)data + tail_off + 8, sizeof slot);
  if (slot < DEPTH) rtg_hip_end(&calls[slot], (char *)data + RTG_HIP_DATA_ARGS_OFF, -1);
  if (depth > 0) depth--;
}

static int report(uint32_t domain, uint32_t op, void *data) {
  if (domain != RTG_HIP_DOMAIN_API || stopped || rtg_inside() || depth >= DEPTH ||
      !rtg_hip_op_traced(op))
    return 1; /* not traced: HIP calls neither phase function */
  char *d = data;
  uint64_t slot = (uint64_t)depth++;
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
  reg(report);
  return RTG_PATH_TAKEN;
}

void rtg_hip_tracer_cb_stop(void) {
  /* Calls in flight still get their phase_exit (the pointers stay valid as
   * long as the tracer is loaded); new calls are no longer traced. */
  stopped = 1;
}
