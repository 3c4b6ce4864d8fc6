/* HIP API tracing on ROCm 6.2+ through HipDispatchTable (placeholder). */
#include "hip_internal.h"
#include "roctx.h"

int rtg_hip_dispatch_table_active(void) { return 0; }
const char *rtg_hip_dispatch_table_describe(void) { return "none"; }

/* placeholder until the table path lands */
int rtg_roctx_wrap_core_table(void *table) { return -1; }
int rtg_roctx_table_active(void) { return 0; }
