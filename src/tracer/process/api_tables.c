/* ROCm 6.2+: HIP and roctx hand their API tables to rocprofiler-register
 * at their first call, before hsa_init loads this library; the preloaded
 * rtg_register.so keeps them (rtg_trace/register.c) and hands them over
 * here, now and whenever more arrive.  "hip" and "hip_compiler" go to HIP
 * tracing, "roctx" (core, control and name tables: only the core one has
 * markers) to ROCTx tracing; other tables are not traced. */
#define _GNU_SOURCE
#include "api_tables.h"

#include "core/tracer.h"
#include "hip/hip_tracing.h"
#include "roctx/roctx_tracing.h"

#include <dlfcn.h>
#include <string.h>

/* rocprofiler_set_api_table's contract; 0 = accepted. */
static int take(const char *name, uint64_t version, uint64_t instance, void **tables,
                uint64_t num) {
  if (!name || !tables || num < 1 || !tables[0]) return 0;
  if (!strcmp(name, "hip") || !strcmp(name, "hip_compiler"))
    rtg_hip_take_table(name, version, instance, tables[0]);
  else if (!strcmp(name, "roctx"))
    rtg_roctx_take_table(tables[0]);
  return 0;
}

void rtg_api_tables_attach(void) {
  void (*attach)(int (*)(const char *, uint64_t, uint64_t, void **, uint64_t));
  *(void **)&attach = dlsym(RTLD_DEFAULT, "rtg_register_attach");
  if (!attach) return; /* rtg_register.so not preloaded: callback paths only */
  rtg_log(1, "rtg_register.so present: taking the tables of rocprofiler-register");
  attach(take);
}
