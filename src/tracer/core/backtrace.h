/* Host call stacks for selected API calls (RTG_BACKTRACE), see backtrace.c. */
#ifndef RTG_BACKTRACE_H
#define RTG_BACKTRACE_H

#include "tracer.h"

#include <stdint.h>

/* Parse RTG_BACKTRACE once (at init).  Returns false when unset or empty. */
RTG_HIDDEN bool rtg_bt_setup(const char *spec);
/* Does the spec select the function `name`? */
RTG_HIDDEN bool rtg_bt_selects(const char *name);
/* Is a call of this duration long enough (the spec's :min_ns)? */
RTG_HIDDEN bool rtg_bt_long_enough(uint64_t dur_ns);
/* Capture the calling thread's stack, write a STACK record and return its
 * id (0 on failure).  skip: innermost frames to leave out (the tracer's). */
RTG_HIDDEN uint64_t rtg_bt_capture(int skip);
/* Write one SYMBOL record per distinct address captured (process end). */
RTG_HIDDEN void rtg_bt_symbolize(void);

#endif
