/* The writer thread (writer.c): drains the per-thread buffers into the
 * trace file, formatting each entry, every RTG_FLUSH_MS or when woken. */
#ifndef RTG_WRITER_H
#define RTG_WRITER_H

#include "visibility.h"

#include <stdint.h>

RTG_HIDDEN void rtg_writer_start(void);
RTG_HIDDEN void rtg_writer_stop(void);
/* Fork child: start the writer when a producer first wakes it, not in the
 * fork handler. */
RTG_HIDDEN void rtg_writer_start_later(void);

/* Wake the writer now (a chunk was sealed, a producer waits for room). */
RTG_HIDDEN void rtg_writer_wake(void);

/* Drain every buffer into the file now, on the calling thread, with what
 * the threads hold back (the end of the trace: hold.h). */
RTG_HIDDEN void rtg_writer_flush(void);
/* The same in a fatal-signal handler: the drain lock may never be freed. */
RTG_HIDDEN void rtg_writer_flush_from_signal(void);

/* Keep the writer off the file (exec, fork) and let it on again;
 * rtg_writer_hold drains everything first, held entries too (exec). */
RTG_HIDDEN void rtg_writer_hold(void);
RTG_HIDDEN void rtg_writer_lock(void);
RTG_HIDDEN void rtg_writer_unlock(void);

/* A task the writer runs between drains, at most every RTG_FLUSH_MS (up to
 * four tasks; one added twice runs once). */
RTG_HIDDEN void rtg_writer_every_flush(void (*task)(void));

/* Fork child: the parent's writer thread is not here. */
RTG_HIDDEN void rtg_writer_after_fork_child(void);

/* What the writer did: entries written and its own CPU time. */
typedef struct rtg_writer_stats {
  uint64_t entries, cpu_ns;
} rtg_writer_stats;
RTG_HIDDEN rtg_writer_stats rtg_writer_get_stats(void);

#endif
