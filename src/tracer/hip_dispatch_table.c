/* HIP API tracing on ROCm 6.2+ through HipDispatchTable (placeholder). */
#include "hip_internal.h"

int rtg_hip_dispatch_table_active(void) { return 0; }
const char *rtg_hip_dispatch_table_describe(void) { return "none"; }
