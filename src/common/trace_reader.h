/* Trace files as classified lines in file order: the one reader of rpt and
 * rtg-convert.
 *
 * Regular files are cut into chunks of 1 MB at line ends; producer threads
 * (one per CPU, at most 4) read chunks with pread and classify their lines
 * there (trace_line.h), parsing the records asked for, while the caller's
 * thread takes the lines in file order, file after file.  A pipe or stdin
 * is one chunk read with the line reader.  Without threads (none could be
 * started) the caller's thread reads each chunk itself, with the same
 * result.  After the last line of each file comes an END entry: its line
 * count, the lines skipped for length, a read error.
 *
 * The reader survives what broken traces hold: NUL bytes, no final
 * newline, lines of megabytes (over RTG_LINE_MAX they are counted and
 * skipped), files that shrink while they are read (the rest is reported
 * missing).  Memory is bounded: a few batches of lines per producer. */
#ifndef RTG_TRACE_READER_H
#define RTG_TRACE_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "linereader.h" /* RTG_LINE_MAX */
#include "trace_line.h"

/* Room that a prepare hook may keep strings in, len + 1 bytes in all (len:
 * the line's; more with rtg_reader_opts.prepare_scale), as long as the
 * line. */
typedef struct rtg_line_space {
  char *p;
  size_t left;
} rtg_line_space;

/* A copy of s[0..n), NUL-terminated, in space (NULL when it has no room). */
static inline const char *rtg_line_keep(rtg_line_space *space, const char *s, size_t n) {
  if (n + 1 > space->left) return NULL;
  char *k = space->p;
  memcpy(k, s, n);
  k[n] = 0;
  space->p += n + 1;
  space->left -= n + 1;
  return k;
}

#define RTG_PREPARE_ROOM_MAX 16384

typedef struct rtg_reader_opts {
  const char *const *paths; /* "-" is stdin */
  size_t npaths;
  uint32_t parse;   /* record kinds to parse whole (RTG_PARSE, RTG_PARSE_ALL) */
  bool keep_text;   /* records are parsed from a copy: every line's text stays as read */
  bool text_lines;  /* hand out TEXT lines; else they are only counted (in line numbers),
                       and SEEN lines of one pid in a row come as one entry (count) */
  unsigned threads; /* producer threads: 0 = one per CPU (at most 4), or RTG_READER_THREADS */
  /* Optional: the caller's own work on a line that needs no state (which
   * its thread would do in file order, one line at a time), done by the
   * producers for every line they hand out (not for END entries), after
   * classification.  It may replace l->u by data of its own (l->u.user),
   * keeping strings in space (rtg_line_keep); it returns how many bytes
   * of l->u are to be handed out (used: the bytes the classification
   * filled). */
  size_t (*prepare)(rtg_line *l, size_t used, rtg_line_space *space, void *arg);
  void *prepare_arg;
  /* With prepare: the space it has beyond len + 1 bytes, in lines of
   * RTG_PREPARE_ROOM_MAX bytes or fewer: prepare_scale * (len + 1) + 256
   * (text it makes of the line, as long as a few lines). */
  unsigned prepare_scale;
  /* With prepare: what it makes of a line is all the caller needs, not
   * its text (handed out as NULL), except for records of the kinds in
   * text_kinds (parsed from a copy that stays).  The producers then read
   * into buffers of their own, which stay in the cache. */
  bool transient_text;
  uint32_t text_kinds;
  bool serial; /* none: the caller's thread reads each chunk itself */
  /* Optional: called for each file (its index in paths) by the thread that
   * starts reading the file's first chunk, before it reads it: a producer
   * running ahead of the caller, which may do work of the caller's there
   * that needs no state (reading a file's head or tail beforehand). */
  void (*file_ahead)(uint32_t file, void *arg);
  void *file_ahead_arg;
} rtg_reader_opts;

typedef struct rtg_reader rtg_reader;

/* The start of every rtg_reader: the lines of the batch being taken, so
 * that rtg_reader_next hands them out inline (it runs for every line). */
typedef struct rtg_reader_lines {
  rtg_line *next, *end;
  uint64_t base; /* lines of the file's chunks before this batch's */
} rtg_reader_lines;

rtg_line *rtg_reader_next_batch(rtg_reader *r);

/* Start reading; NULL when memory runs out (errno set). */
rtg_reader *rtg_reader_open(const rtg_reader_opts *o);

/* The next line, or the END entry of a file; NULL after the last file's
 * END.  The line (text included, writable up to len; NULL with
 * transient_text) stays valid until the next call. */
static inline rtg_line *rtg_reader_next(rtg_reader *r) {
  rtg_reader_lines *b = (rtg_reader_lines *)r;
  if (b->next == b->end) return rtg_reader_next_batch(r);
  rtg_line *l = b->next++;
  l->lineno += b->base;
  return l;
}

/* How far the caller has come in the file of the last line: bytes and the
 * file's size (0 when it has none: a pipe). */
void rtg_reader_progress(const rtg_reader *r, uint64_t *done, uint64_t *size);

/* Stop the producers (the rest is not read) and free everything. */
void rtg_reader_close(rtg_reader *r);

#endif
