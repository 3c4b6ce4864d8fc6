/* Reading and parsing an input on a second thread.
 *
 * rtg-convert spends about a third of its time reading lines and parsing
 * records (rtg_record_parse, which depends on nothing but the line) and
 * the rest turning records into outputs.  With two cores the first part
 * runs ahead on its own thread, in batches of a few thousand lines: each
 * line is copied into the batch, parsed there, and handed over in file
 * order; everything with state (processes, names, sinks, messages) stays on
 * the main thread.  A few batches in flight bound the memory. */
#ifndef RTG_CONVERT_PARSE_THREAD_H
#define RTG_CONVERT_PARSE_THREAD_H

#include <stdbool.h>
#include <stdint.h>

#include "rtg/record.h"

typedef struct pt_line {
  char *line; /* NUL-terminated; modified in place by the parse */
  size_t len;
  uint64_t lineno;
  bool nul;          /* held NUL bytes: not parsed */
  bool unterminated; /* the last line of the input, without its '\n' */
  enum rtg_kind kind;
  const char *why; /* when kind is NONE: the parser's reason, or NULL */
  rtg_record rec;
} pt_line;

typedef struct pt_reader pt_reader;

/* Opens path ("-" = stdin) and starts reading; NULL with errno set when it
 * cannot be opened.  progress_label: print a percentage on stderr. */
pt_reader *pt_open(const char *path, const char *progress_label);
/* The next line, in file order; NULL at the end.  Valid until the next call. */
pt_line *pt_next(pt_reader *p);
/* Stops the thread.  *too_long: lines skipped for length; *last_lineno;
 * returns false (errno set) when reading failed. */
bool pt_close(pt_reader *p, uint64_t *too_long, uint64_t *last_lineno);

#endif
