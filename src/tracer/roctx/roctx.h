/* Interfaces between the parts of the ROCTx side of rtg_tracer.so:
 *   roctx_paths.c      finding roctx, choosing the path of its release
 *   roctx.c            markers and ranges -> ROCTX records, whatever the path
 *   roctx_callbacks.c  ROCm <= 6.1: the callbacks roctx calls
 *   roctx_table.c      ROCm 6.2+: the core table via rocprofiler-register */
#ifndef RTG_ROCTX_H
#define RTG_ROCTX_H

#include "core/paths.h"
#include "core/tracer.h"

#include <stdint.h>

/* roctx_api_id_t (ROCm/roctracer inc/roctracer_roctx.h, 5.2..6.2) */
enum {
  RTG_ROCTX_MARK = 0,
  RTG_ROCTX_PUSH = 1,
  RTG_ROCTX_POP = 2,
  RTG_ROCTX_START = 3,
  RTG_ROCTX_STOP = 4,
  RTG_ROCTX_NOPS
};
/* activity_domain_t of ROCTx */
#define RTG_ROCTX_DOMAIN 6

/* What the application did, whichever path reported it. */
RTG_HIDDEN void rtg_roctx_mark(const char *message);
RTG_HIDDEN void rtg_roctx_push(const char *message);
RTG_HIDDEN void rtg_roctx_pop(void);
RTG_HIDDEN void rtg_roctx_start(const char *message, uint64_t id);
RTG_HIDDEN void rtg_roctx_stop(uint64_t id);

/* One ROCTx report in the roctracer callback form: data points to a
 * roctx_api_data_t {union {struct {const char *message; uint64_t id;}}}. */
RTG_HIDDEN void rtg_roctx_report(uint32_t op, const void *data);

/* Process end, after every path stopped: write the ranges still open, as
 * closed now, with unclosed:1. */
RTG_HIDDEN void rtg_roctx_write_open_ranges(void);

/* The paths (core/paths.h): the callback paths of roctx_callbacks.c, given
 * the roctx library, and the 6.2+ core table (roctx_table.c), taken when
 * rtg_roctx_table_wrap wrapped one (true; false: not a core table). */
RTG_HIDDEN rtg_path_start rtg_roctx_tracer_cb_start(void *roctx_lib);
RTG_HIDDEN void rtg_roctx_tracer_cb_stop(void);
RTG_HIDDEN rtg_path_start rtg_roctx_legacy_start(void *roctx_lib);
RTG_HIDDEN void rtg_roctx_legacy_stop(void);
RTG_HIDDEN bool rtg_roctx_table_wrap(void *core_table);
RTG_HIDDEN rtg_path_start rtg_roctx_table_start(void *unused);
RTG_HIDDEN void rtg_roctx_table_stop(void);

#endif
