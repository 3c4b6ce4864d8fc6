/* Streaming line reader for the offline tools: reads any size of file in
 * constant memory, numbers lines, and survives what broken traces contain
 * (NUL bytes, no final newline, lines of megabytes). */
#ifndef RTG_LINEREADER_H
#define RTG_LINEREADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define RTG_LINE_MAX (1u << 20) /* longer lines are reported and skipped */

typedef struct rtg_linereader {
  const char *path; /* for messages; "-" for stdin */
  int fd;
  bool own_fd;
  char *buf;
  size_t cap, start, end; /* buf[start..end) holds unread bytes */
  bool eof, error;
  uint64_t lineno;     /* number of the line last returned */
  uint64_t bytes_read; /* for progress */
  uint64_t too_long;   /* lines skipped for exceeding line_max */
  uint64_t size;       /* file size when known, else 0 */
  bool unterminated;   /* the last line returned had no '\n' (a cut-off file) */
  bool ranged;         /* a range of another file (inrange.h): ... */
  uint64_t range_left; /* ... of which this many bytes are still to read */
  /* Set by open, changed by tests only (tests/fuzz/fuzz_linereader.c
   * makes every buffer boundary reachable with small inputs): */
  size_t line_max;                                 /* RTG_LINE_MAX */
  ssize_t (*read_fn)(int fd, void *buf, size_t n); /* read(2) */
} rtg_linereader;

/* Open path ("-" = stdin; a name of inrange.h reads as its range).
 * Returns false with errno set. */
bool rtg_linereader_open(rtg_linereader *lr, const char *path);

/* Next line, without its '\n' and NUL-terminated (the caller may modify
 * it up to len).  *has_nul tells whether the line held NUL bytes (binary
 * junk).  Returns NULL at end of file or on a read error (lr->error). */
char *rtg_linereader_next(rtg_linereader *lr, size_t *len, bool *has_nul);

void rtg_linereader_close(rtg_linereader *lr);

#endif
