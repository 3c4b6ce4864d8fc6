/* How each ROCm release reports ROCTx calls to a tool (facts: ROCm/roctracer
 * src/roctx/roctx.cpp, roctx_intercept.cpp; ROCm/rocprofiler-sdk
 * source/include/rocprofiler-sdk-roctx/api_trace.h):
 *   <= 5.3.0  libroctx64 exports RegisterApiCallback(op, cb, arg); roctx calls
 *             cb(6, op, roctx_api_data_t*, arg) before doing the operation.
 *   5.3.1+    roctxRegisterTracerCallback(int (*)(domain, op, data)).
 *   6.2+      rocprofiler-sdk-roctx hands three tables (core, control, name)
 *             to rocprofiler-register; with rtg_tracer.so preloaded and named
 *             by ROCPROFILER_REGISTER_LIBRARY we wrap the core table
 *             (rtg_roctx_wrap_core_table, called from hip_dispatch_table.c).
 * roctx_api_data_t is {union {struct {const char *message; uint64_t id;}}}
 * in all of them.  The library is never loaded by us: only hooked when the
 * application has it. */
#define _GNU_SOURCE
#include "roctx.h"

#include <dlfcn.h>
#include <string.h>

typedef bool (*register_api_fn)(uint32_t op, void *cb, void *arg);
typedef void (*register_tracer_fn)(int (*)(uint32_t domain, uint32_t op, void *data));

static volatile int active;
static int registered; /* a callback path is hooked */

static void legacy_cb(uint32_t domain, uint32_t op, const void *data, void *arg) {
  if (active && domain == RTG_ROCTX_DOMAIN) rtg_roctx_report(op, data);
}

static int tracer_cb(uint32_t domain, uint32_t op, void *data) {
  if (active && domain == RTG_ROCTX_DOMAIN) rtg_roctx_report(op, data);
  return 0;
}

static void *find_roctx(void) {
  static const char *const sonames[] = {"libroctx64.so", "libroctx64.so.4", "libroctx64.so.1",
                                        NULL};
  for (int i = 0; sonames[i]; i++) {
    void *h = dlopen(sonames[i], RTLD_LAZY | RTLD_NOLOAD);
    if (h) return h;
  }
  Dl_info info;
  void *sym = dlsym(RTLD_DEFAULT, "roctxRangePushA");
  if (sym && dladdr(sym, &info) && info.dli_fname)
    return dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
  return NULL;
}

void rtg_roctx_init(void) {
  if (!rtg_cfg.roctx) return;
  active = 1;
  if (rtg_roctx_table_active()) {
    rtg_log(1, "ROCTx: roctx core table via rocprofiler-register");
    return;
  }
  void *lib = find_roctx();
  if (!lib) {
    rtg_log(1, "ROCTx: no roctx library in this process");
    return;
  }
  register_tracer_fn reg_tracer;
  register_api_fn reg_api;
  *(void **)&reg_tracer = dlsym(lib, "roctxRegisterTracerCallback");
  *(void **)&reg_api = dlsym(lib, "RegisterApiCallback");
  if (reg_tracer) {
    reg_tracer(tracer_cb);
    registered = 1;
    rtg_log(1, "ROCTx: roctxRegisterTracerCallback path (5.3.1+)");
  } else if (reg_api) {
    for (uint32_t op = 0; op < RTG_ROCTX_NOPS; op++) reg_api(op, (void *)legacy_cb, NULL);
    registered = 1;
    rtg_log(1, "ROCTx: RegisterApiCallback path (<= 5.3.0)");
  } else {
    rtg_log(0, "ROCTx: the roctx library offers no tracing interface; markers not traced");
  }
}

int rtg_roctx_callback_active(void) {
  return registered;
}

void rtg_roctx_stop_reports(void) {
  active = 0;
  rtg_roctx_table_stop();
}
