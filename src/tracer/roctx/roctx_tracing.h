/* ROCTx tracing as the rest of the tracer sees it (roctx_paths.c). */
#ifndef RTG_ROCTX_TRACING_H
#define RTG_ROCTX_TRACING_H

#include "core/visibility.h"

/* At load, after the tables rocprofiler-register kept were handed over:
 * choose and start the path of the application's roctx library. */
RTG_HIDDEN void rtg_roctx_init(void);
/* At process end: stop taking markers, and write the ranges still open. */
RTG_HIDDEN void rtg_roctx_fini(void);

/* ROCm 6.2+: the "roctx" core table rocprofiler-register handed to the
 * tool (roctxCoreApiTable_t: size, MarkA, RangePushA, RangePop,
 * RangeStartA, RangeStop, GetThreadId). */
RTG_HIDDEN void rtg_roctx_take_table(void *core_table);

#endif
