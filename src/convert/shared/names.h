/* The names the timeline outputs (out/chrome, out/perfetto, out/html)
 * give their slices of copies and of GPU idle gaps, the same in each. */
#ifndef RTG_CONVERT_NAMES_H
#define RTG_CONVERT_NAMES_H

#include <stddef.h>
#include <stdint.h>

#include "convert.h"

/* "HostToDevice 65536 bytes": the name of a copy on the timelines. */
const char *cv_copy_name(const cv_event *ev, char *buf, size_t cap);
/* "gap 20us-50us": the name of a GPU idle gap (-g), by --gap-buckets. */
const char *cv_gap_name(const cv_ctx *ctx, uint64_t ns, char *buf, size_t cap);

#endif
