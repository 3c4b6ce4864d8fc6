/* The record sink as the rest of the process sees it (sink.c): open it at
 * load, close it at exit; and what exec, fork and a fatal signal need. */
#ifndef RTG_SINK_H
#define RTG_SINK_H

#include "visibility.h"

#include <stdbool.h>

/* Open the output (header record first) and start the writer thread.
 * false: not tracing (said on stderr). */
RTG_HIDDEN bool rtg_sink_open(void);
/* Write everything, then the summary record, and close. */
RTG_HIDDEN void rtg_sink_close(void);

/* A fatal signal: write what every thread recorded and the summary, with
 * no lock the dying process may never see freed. */
RTG_HIDDEN void rtg_sink_dump_fatal(void);

/* exec: write every buffer and the summary, then keep the writer off the
 * file until exec either replaces us or fails; on failure cut the summary
 * off again and resume.  begin returns false when there is no open sink. */
RTG_HIDDEN bool rtg_sink_exec_begin(void);
RTG_HIDDEN void rtg_sink_exec_failed(void);

/* fork: the writer is held across the fork; the child drops the parent's
 * records, opens a file of its own and starts its own writer. */
RTG_HIDDEN void rtg_sink_fork_prepare(void);
RTG_HIDDEN void rtg_sink_fork_parent(void);
RTG_HIDDEN void rtg_sink_fork_child(void);

#endif
