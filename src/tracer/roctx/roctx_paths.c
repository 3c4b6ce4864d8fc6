/* ROCTx tracing: finding the roctx library the application has and
 * choosing how its release reports markers (facts: ROCm/roctracer
 * src/roctx; ROCm/rocprofiler-sdk source/include/rocprofiler-sdk-roctx/
 * api_trace.h).  Paths, tried in this order (rtg_path_choose):
 *   core-table       6.2+: rocprofiler-sdk-roctx handed its tables to
 *                    rocprofiler-register, taken when the tracer loaded
 *                    (process/api_tables.c, roctx_table.c).
 *   tracer-callback  5.3.1+: roctxRegisterTracerCallback (roctx_callbacks.c).
 *   callback-5.2     <= 5.3.0: RegisterApiCallback (roctx_callbacks.c).
 * The library is never loaded by us: only hooked when the application has
 * it. */
#include "roctx_tracing.h"

#include "core/paths.h"
#include "roctx.h"

static const rtg_path paths[] = {
    {"core-table", false, rtg_roctx_table_start, rtg_roctx_table_stop},
    {"tracer-callback", true, rtg_roctx_tracer_cb_start, rtg_roctx_tracer_cb_stop},
    {"callback-5.2", true, rtg_roctx_legacy_start, rtg_roctx_legacy_stop},
};
enum { NPATHS = sizeof paths / sizeof *paths };

static const rtg_path *chosen;
static bool library_missing;

static void *find_roctx(void) {
  static const char *const sonames[] = {"libroctx64.so", "libroctx64.so.4", "libroctx64.so.1",
                                        NULL};
  void *lib = rtg_path_loaded_library(sonames, "roctxRangePushA");
  library_missing = !lib;
  if (!lib) rtg_log(1, "ROCTx: no roctx library in this process");
  return lib;
}

void rtg_roctx_init(void) {
  if (!rtg_cfg.roctx) return;
  chosen = rtg_path_choose(paths, NPATHS, find_roctx);
  if (!chosen && !library_missing)
    rtg_log(0, "ROCTx: the roctx library offers no tracing interface; markers not traced");
}

void rtg_roctx_fini(void) {
  rtg_paths_stop(paths, NPATHS);
  rtg_roctx_write_open_ranges();
}

void rtg_roctx_take_table(void *core_table) {
  /* once a callback path reports, a table arriving later is left alone, so
   * no marker is reported twice */
  if (chosen && chosen->needs_library)
    rtg_log(1, "ROCTx core table arrived after the callback path started: left alone");
  else if (rtg_cfg.roctx && rtg_roctx_table_wrap(core_table))
    rtg_log(1, "ROCTx: roctx core table via rocprofiler-register");
}
