/* ROCTx on ROCm up to 6.1: the roctx library reports each marker to a
 * callback the tool registers (facts: ROCm/roctracer src/roctx/roctx.cpp,
 * roctx_intercept.cpp):
 *   <= 5.3.0  libroctx64 exports RegisterApiCallback(op, cb, arg); roctx calls
 *             cb(6, op, roctx_api_data_t*, arg) before doing the operation.
 *   5.3.1+    roctxRegisterTracerCallback(int (*)(domain, op, data)).
 * roctx_api_data_t is {union {struct {const char *message; uint64_t id;}}}
 * in both.  Neither can be unregistered safely while threads still call:
 * a stopped path ignores what it is told. */
#define _GNU_SOURCE
#include "roctx.h"

#include <dlfcn.h>

typedef bool (*register_api_fn)(uint32_t op, void *cb, void *arg);
typedef void (*register_tracer_fn)(int (*)(uint32_t domain, uint32_t op, void *data));

/* ----------------------------------------------------------------- 5.3.1+ */

static volatile int tracer_on;

static int tracer_cb(uint32_t domain, uint32_t op, void *data) {
  if (tracer_on && domain == RTG_ROCTX_DOMAIN) rtg_roctx_report(op, data);
  return 0;
}

rtg_path_start rtg_roctx_tracer_cb_start(void *lib) {
  register_tracer_fn reg;
  *(void **)&reg = dlsym(lib, "roctxRegisterTracerCallback");
  if (!reg) return RTG_PATH_ABSENT;
  tracer_on = 1;
  reg(tracer_cb);
  rtg_log(1, "ROCTx: roctxRegisterTracerCallback path (5.3.1+)");
  return RTG_PATH_TAKEN;
}

void rtg_roctx_tracer_cb_stop(void) {
  tracer_on = 0;
}

/* ---------------------------------------------------------------- <= 5.3.0 */

static volatile int legacy_on;

static void legacy_cb(uint32_t domain, uint32_t op, const void *data, void *arg) {
  if (legacy_on && domain == RTG_ROCTX_DOMAIN) rtg_roctx_report(op, data);
}

rtg_path_start rtg_roctx_legacy_start(void *lib) {
  register_api_fn reg;
  *(void **)&reg = dlsym(lib, "RegisterApiCallback");
  if (!reg) return RTG_PATH_ABSENT;
  legacy_on = 1;
  for (uint32_t op = 0; op < RTG_ROCTX_NOPS; op++) reg(op, (void *)legacy_cb, NULL);
  rtg_log(1, "ROCTx: RegisterApiCallback path (<= 5.3.0)");
  return RTG_PATH_TAKEN;
}

void rtg_roctx_legacy_stop(void) {
  legacy_on = 0;
}
