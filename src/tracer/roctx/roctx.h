/* ROCTx markers and ranges (roctx.c) and how each ROCm release reports them
 * (roctx_paths.c).  Ranges become ROCTX records when they close. */
#ifndef RTG_ROCTX_H
#define RTG_ROCTX_H

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

/* Find the ROCTx library and hook it (called from rtg_hip_init), and stop. */
RTG_HIDDEN void rtg_roctx_init(void);
RTG_HIDDEN void rtg_roctx_fini(void);
/* roctx_paths.c: ignore further reports (at exit). */
RTG_HIDDEN void rtg_roctx_stop_reports(void);

/* 6.2+: wrap the roctx core table rocprofiler-register hands us
 * (roctxCoreApiTable_t: size, MarkA, RangePushA, RangePop, RangeStartA,
 * RangeStop, GetThreadId).  Returns 0 when wrapped. */
RTG_HIDDEN int rtg_roctx_wrap_core_table(void *table);
RTG_HIDDEN int rtg_roctx_table_active(void);
RTG_HIDDEN void rtg_roctx_table_stop(void);
/* True once a callback path (<= 6.1) is hooked: a core table arriving later
 * is then left alone, so no marker is reported twice. */
RTG_HIDDEN int rtg_roctx_callback_active(void);

#endif
