/* HIP API tracing as the rest of the tracer sees it (hip_paths.c). */
#ifndef RTG_HIP_TRACING_H
#define RTG_HIP_TRACING_H

#include "core/visibility.h"

#include <stdint.h>

/* At load, after the settings are read, the sink is open, RTG_BACKTRACE is
 * set up and the tables rocprofiler-register kept were handed over:
 * choose and start the path. */
RTG_HIDDEN void rtg_hip_init(void);
/* At process end, before the final flush: stop tracing HIP calls and write
 * the symbols of the stacks captured (RTG_BACKTRACE). */
RTG_HIDDEN void rtg_hip_fini(void);

/* A table rocprofiler-register handed to the tool (ROCm 6.2+): "hip"
 * (HipDispatchTable) or "hip_compiler" (HipCompilerDispatchTable). */
RTG_HIDDEN void rtg_hip_take_table(const char *name, uint64_t version, uint64_t instance,
                                   void *table);

#endif
