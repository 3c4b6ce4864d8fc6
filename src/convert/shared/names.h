/* The names the timeline outputs (out/chrome, out/perfetto, out/html)
 * give their slices of copies, the same in each (their gap slices are
 * named by cause: analyze/gapslices.h). */
#ifndef RTG_CONVERT_NAMES_H
#define RTG_CONVERT_NAMES_H

#include <stddef.h>
#include <stdint.h>

#include "convert.h"

/* "HostToDevice 65536 bytes": the name of a copy on the timelines. */
const char *cv_copy_name(const cv_event *ev, char *buf, size_t cap);

#endif
