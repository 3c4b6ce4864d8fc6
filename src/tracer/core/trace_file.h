/* The trace file (trace_file.c): its header, the writes of the writer, the
 * summary record, and what happens when a write fails. */
#ifndef RTG_TRACE_FILE_H
#define RTG_TRACE_FILE_H

#include "visibility.h"

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Open rtg_cfg.path (never over the file of an earlier image of this
 * process) and write the header record.  false: not tracing (said). */
RTG_HIDDEN bool rtg_file_open(void);
RTG_HIDDEN void rtg_file_close(void);

/* The writer thread runs with every signal blocked: its writes need no
 * guard against SIGXFSZ/SIGPIPE. */
RTG_HIDDEN void rtg_file_on_writer_thread(void);

/* Write p[0..n) whole.  After the first failed write the trace is cut off
 * there: later writes are dropped and counted in write_errors. */
RTG_HIDDEN bool rtg_file_write(const char *p, size_t n);

/* The summary record, last in the trace; returns the offset where it
 * begins, -1 when it could not be written.  rtg_file_write_summary also
 * says so on stderr when the trace was cut off. */
RTG_HIDDEN off_t rtg_file_put_summary(void);
RTG_HIDDEN void rtg_file_write_summary(void);

/* exec failed after rtg_file_put_summary wrote the summary at mark: cut it
 * off again, the image goes on. */
RTG_HIDDEN void rtg_file_unput_summary(off_t mark);

/* Fork child: the parent's file stays the parent's; a new one is opened. */
RTG_HIDDEN void rtg_file_after_fork_child(void);

#endif
