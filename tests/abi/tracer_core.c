/* See tracer_core.h: the HIP and ROCTx part of process/onload.c.  The
 * settings come from the environment as in the tracer (RTG_FILENAME,
 * RTG_HIP_API_*, RTG_ROCTX, RTG_BACKTRACE, ...). */
#include "tracer_core.h"

#include "core/backtrace.h"
#include "core/sink.h"
#include "core/tracer.h"
#include "hip/hip_tracing.h"
#include "process/api_tables.h"
#include "roctx/roctx_tracing.h"

void rtg_test_tracer_start(void) {
  rtg_config_read();
  if (!rtg_sink_open()) return;
  rtg_bt_setup(rtg_cfg.backtrace);
  rtg_api_tables_attach();
  rtg_roctx_init();
  rtg_hip_init();
}

void rtg_test_tracer_stop(void) {
  rtg_roctx_fini();
  rtg_hip_fini();
  rtg_bt_symbolize();
  rtg_sink_close();
}
