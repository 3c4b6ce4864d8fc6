/* --split-size for the Perfetto trace (perfetto_split.c). */
#ifndef RTG_CONVERT_PERFETTO_SPLIT_H
#define RTG_CONVERT_PERFETTO_SPLIT_H

#include <stdbool.h>
#include <stdint.h>

/* The whole trace, flen bytes of fd, cut into time windows of at most
 * size bytes each, out.000.pftrace ..., and their index out.index.json.
 * False after saying why. */
bool cv_pftrace_split(int fd, uint64_t flen, const char *out, uint64_t size, bool quiet);

#endif
