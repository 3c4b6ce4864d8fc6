/* ROCTx markers and ranges (placeholder). */
#include "tracer.h"

const char *rtg_roctx_current_range(void) { return 0; }
