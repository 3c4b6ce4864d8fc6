/* HIP API tracing: finding the HIP runtime and choosing the tracing path
 * of its release.
 *
 * Paths, tried in this order (rtg_path_choose):
 *   dispatch-table   6.2+: rocprofiler-register handed HipDispatchTable to
 *                    the preloaded rtg_register.so (LD_PRELOAD +
 *                    ROCPROFILER_REGISTER_LIBRARY, see hip_dispatch_table.c),
 *                    which the tracer took at load (process/api_tables.c).
 *   got              RTG_HIP_PATH=got, any release without the table: the
 *                    GOT slots of every other object (hip_got.c).
 *   tracer-callback  5.3.1+: hipRegisterTracerCallback (hip_tracer_cb.c).
 *   callback-5.2     <= 5.3.0: hipRegisterApiCallback + ActivityCallback
 *                    (hip_cb_legacy.c) for the call that loaded the tracer,
 *                    then the GOT ("callback-5.2+got"); RTG_HIP_PATH=callback:
 *                    the callbacks throughout.
 * HIP is never linked: its symbols are looked up in the already loaded
 * runtime, so the tracer loads in pure HSA programs too. */
#define _GNU_SOURCE
#include "hip_tracing.h"

#include "core/backtrace.h"
#include "core/filter_check.h"
#include "core/paths.h"
#include "hip_internal.h"

#include <dlfcn.h>
#include <string.h>

static const rtg_path paths[] = {
    {"dispatch-table", false, rtg_hip_dispatch_table_start, rtg_hip_dispatch_table_stop},
    {"got", true, rtg_hip_got_start, rtg_hip_got_stop},
    {"tracer-callback", true, rtg_hip_tracer_cb_start, rtg_hip_tracer_cb_stop},
    {"callback-5.2", true, rtg_hip_legacy_start, rtg_hip_legacy_stop},
};
enum { NPATHS = sizeof paths / sizeof *paths };

/* Names from hipApiName() for a release newer than our tables. */
static const char *probed_names[1024];
static rtg_hip_release probed_rel;

/* The HIP runtime the application loaded, if any, by the sonames of each
 * major release. */
static void *find_hip(void) {
  static const char *const sonames[] = {"libamdhip64.so",   "libamdhip64.so.7", "libamdhip64.so.6",
                                        "libamdhip64.so.5", "libamdhip64.so.4", NULL};
  return rtg_path_loaded_library(sonames, "hipApiName");
}
/* Identify the release by its last op id: hipApiName() is a pure lookup in
 * every release (it calls no HIP initialisation) and says "unknown" past the
 * last id. */
static const rtg_hip_release *probe_release(void *lib) {
  const char *(*api_name)(uint32_t) = (const char *(*)(uint32_t))dlsym(lib, "hipApiName");
  if (!api_name) return NULL;
  uint32_t last = 0;
  for (uint32_t id = 1; id < 1024; id++) {
    const char *n = api_name(id);
    if (n && strcmp(n, "unknown") != 0) last = id;
  }
  const rtg_hip_release *r = rtg_hip_release_by_last(last);
  if (r) {
    /* a cheap sanity check that the table matches the library */
    uint32_t bad = 0;
    for (uint32_t id = 1; id <= last; id++) {
      const char *n = api_name(id);
      if (r->names[id] && n && strcmp(n, "unknown") != 0 && strcmp(n, r->names[id]) != 0) bad++;
    }
    if (!bad) return r;
    rtg_log(1, "HIP op table %s differs from hipApiName in %u names; using HIP's names", r->name,
            bad);
  }
  /* Unknown release: take the names from HIP itself.  The 5.3.1+ path stays
   * off (the size of hip_api_data_t is unknown), see hip_tracer_cb.c. */
  for (uint32_t id = 1; id <= last; id++) {
    const char *n = api_name(id);
    probed_names[id] = n && strcmp(n, "unknown") != 0 ? n : NULL;
  }
  probed_rel.name = "unknown";
  probed_rel.last_op = last;
  probed_rel.data_size = r ? r->data_size : 0;
  probed_rel.names = probed_names;
  return last ? &probed_rel : NULL;
}

static void setup_ops(void) {
  const rtg_hip_release *r = rtg_hip.rel;
  memset(rtg_hip.enabled, 0, sizeof(rtg_hip.enabled));
  memset(rtg_hip.backtrace, 0, sizeof(rtg_hip.backtrace));
  rtg_hip_args_setup();
  unsigned kept = 0;
  for (uint32_t op = 1; op <= r->last_op && op < sizeof(rtg_hip.enabled); op++) {
    const char *n = r->names[op];
    if (!n) continue;
    bool keep = rtg_hip_name_traced(n);
    rtg_hip.enabled[op] = keep;
    rtg_hip.backtrace[op] = keep && rtg_bt_selects(n);
    if (!strcmp(n, "hipGraphLaunch")) rtg_hip.graph_launch_op = op;
    kept += keep;
    rtg_log(2, "HIP API %s %s", keep ? "keep" : "skip", n);
  }
  rtg_log(1, "HIP API: %u of the release's functions traced", kept);
  static const char *const keywords[] = {"all", NULL};
  rtg_filter_check("RTG_HIP_API_FILTER", rtg_cfg.hip_filter.spec, "HIP", r->names,
                   (size_t)r->last_op + 1, keywords);
  rtg_filter_check("RTG_HIP_API_FILTER_OUT", rtg_cfg.hip_filter_out.spec, "HIP", r->names,
                   (size_t)r->last_op + 1, keywords);
}

/* What the callback paths need: HIP tracing asked for, the runtime, its
 * release and the ops it traces.  NULL (said why): HIP calls not traced. */
static bool runtime_missing;
static void *hip_runtime(void) {
  runtime_missing = true;
  if (!rtg_cfg.hip_api) {
    rtg_log(1, "HIP API tracing: off");
    return NULL;
  }
  void *lib = find_hip();
  if (!lib) {
    rtg_log(1, "HIP API tracing: no HIP runtime in this process");
    return NULL;
  }
  rtg_hip.rel = probe_release(lib);
  if (!rtg_hip.rel) {
    rtg_log(
        0,
        "HIP API tracing: cannot identify the HIP release (no hipApiName); HIP calls not traced");
    return NULL;
  }
  *(void **)&rtg_hip.kernel_name_ref = dlsym(lib, "hipKernelNameRef");
  *(void **)&rtg_hip.kernel_name_by_ptr = dlsym(lib, "hipKernelNameRefByPtr");
  *(void **)&rtg_hip.peek_at_last_error = dlsym(lib, "hipPeekAtLastError");
  setup_ops();
  runtime_missing = false;
  return lib;
}

void rtg_hip_init(void) {
  const rtg_path *p = rtg_path_choose(paths, NPATHS, hip_runtime);
  if (p) {
    if (!rtg_hip.path) rtg_hip.path = p->name; /* (or a path's own more exact name) */
    rtg_hip.callback_path = p->needs_library;
  }
  if (p && !p->needs_library)
    rtg_log(1, "HIP API tracing: HipDispatchTable via rocprofiler-register (%s)",
            rtg_hip_dispatch_table_describe());
  else if (p)
    rtg_log(1, "HIP API tracing: %s path, HIP op table %s (last op %u)", rtg_hip.path,
            rtg_hip.rel->name, rtg_hip.rel->last_op);
  else if (!runtime_missing)
    rtg_log(0, "HIP API tracing: no usable HIP tracing interface; HIP calls not traced");
}

void rtg_hip_fini(void) {
  rtg_paths_stop(paths, NPATHS);
}

void rtg_hip_take_table(const char *name, uint64_t version, uint64_t instance, void *table) {
  /* once a callback path traces HIP, a table arriving later is left alone,
   * so no call is traced twice */
  if (rtg_hip.callback_path)
    rtg_log(1, "HIP %s table arrived after the %s path started: left alone", name, rtg_hip.path);
  else
    rtg_hip_dispatch_table_take(name, version, instance, table);
}
