/* Duplicate inputs, found the same way by rtg-convert and rpt.  The same
 * trace read twice (a file given twice, a file concatenated with itself, a
 * copy of a file) would count every record twice.  Two fingerprints:
 *   - a regular file by (device, inode): the same file given twice;
 *   - a header record (pid, tid, host, boot and real-time clocks at the
 *     start, parent pid, executable), which names one run of one process:
 *     the same header again means the records of that pid that follow
 *     repeat a trace already read, up to the pid's next, different header
 *     (after an exec the header differs).
 * Not caught: a repeated trace without its header line, and repeated
 * HCC_PROFILE=2 logs in separate copies (they have no header).  Each set
 * is an rtg_u64map of fingerprints (a zeroed map is empty). */
#ifndef RTG_DEDUP_H
#define RTG_DEDUP_H

#include "rtg/record.h"
#include "u64map.h"

#include <stdbool.h>
#include <stdint.h>

/* The fingerprint of a header record (never 0). */
uint64_t rtg_header_fingerprint(const rtg_record *header);

/* Add the fingerprint of a header to seen: true when it was there already. */
bool rtg_seen_header(rtg_u64map *seen, uint64_t fingerprint);

/* Add (device, inode) of path to seen, with the value val: true when that
 * regular file was there already (then *first, if given, gets the value it
 * was added with).  Not a regular file ("-", a pipe), or no stat: false. */
bool rtg_seen_file(rtg_u64map *seen, const char *path, uint64_t val, uint64_t *first);

#endif
