/* Tiny number and string formatters (fmt.c): no stdio, no locale, usable
 * on any thread and in a signal handler.  Each writes at p, never past
 * end, and returns the new end of text. */
#ifndef RTG_FMT_H
#define RTG_FMT_H

#include "visibility.h"

#include <stdint.h>

RTG_HIDDEN char *rtg_fmt_u64(char *p, char *end, uint64_t v);
RTG_HIDDEN char *rtg_fmt_i64(char *p, char *end, int64_t v);
RTG_HIDDEN char *rtg_fmt_hex(char *p, char *end, uint64_t v);
RTG_HIDDEN char *rtg_fmt_str(char *p, char *end, const char *s);

#endif
