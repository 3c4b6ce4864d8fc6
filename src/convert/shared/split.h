/* --split-size, what the JSON's and the Perfetto trace's parts share:
 * their names and their index (shared/split.c). */
#ifndef RTG_CONVERT_SPLIT_H
#define RTG_CONVERT_SPLIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A part: its first start, last start and last end (ns, as its events
 * give them), its bytes and its events. */
typedef struct cv_split_part {
  uint64_t from, last, to, bytes, events;
} cv_split_part;

/* out.json -> out.WHAT.json (the extension kept), out -> out.WHAT;
 * malloc'd. */
char *cv_split_name(const char *out, const char *what);

/* A file beside out for the whole output, already removed from its
 * directory (it goes with the process, whatever ends it); NULL with
 * errno set. */
FILE *cv_split_whole(const char *out);

/* One line per part on stderr (unless quiet), then the index
 * out.index.json (without out's extension) and its line; false after
 * saying why. */
bool cv_split_report(const char *out, uint64_t size, size_t nparts, char *const *names,
                     const cv_split_part *parts, bool quiet);

#endif
