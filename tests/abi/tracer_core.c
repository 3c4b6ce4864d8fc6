/* See tracer_core.h.  The settings come from the environment as in the
 * tracer (RTG_FILENAME, RTG_HIP_API_*, RTG_ROCTX, ...). */
#include "tracer_core.h"

#include "core/sink.h"
#include "core/tracer.h"
#include "hip/hip_internal.h"

void rtg_test_tracer_start(void) {
  rtg_config_read();
  if (rtg_sink_open()) rtg_hip_init();
}

void rtg_test_tracer_stop(void) {
  rtg_hip_fini();
  rtg_sink_close();
}
