/* HIP API tracing: placeholder until the HIP issue lands. */
#include "tracer.h"

void rtg_hip_init(void) {}
void rtg_hip_fini(void) {}
