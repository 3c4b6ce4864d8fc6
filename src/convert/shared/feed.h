/* Records from the thread that dispatches events to a worker thread of a
 * sink, in their order (feed.c), so that a sink's per-event work runs
 * beside the dispatching thread and its results are the same as if it ran
 * there.  The dispatching thread writes each record into blocks; a full
 * block goes to the worker, which hands it back once done.  At most
 * max_blocks wait at a time: the dispatching thread waits for one back
 * rather than hold more. */
#ifndef RTG_CONVERT_FEED_H
#define RTG_CONVERT_FEED_H

#include <stddef.h>

#define CV_FEED_BLOCK_BYTES ((size_t)256 << 10)

/* The worker's work on one block: data[0..used), records as written. */
typedef void (*cv_feed_fn)(void *arg, const unsigned char *data, size_t used);

typedef struct cv_feed cv_feed;
/* NULL where no thread can be started or the process may run on one CPU
 * only (the caller then does the work itself).  max_blocks: of
 * CV_FEED_BLOCK_BYTES, held at most at a time. */
cv_feed *cv_feed_start(cv_feed_fn fn, void *arg, unsigned max_blocks);
/* Room for a record of need bytes (a multiple of 8) at the end of the
 * block being filled; written by the caller before its next call. */
void *cv_feed_put(cv_feed *f, size_t need);
/* Every record done, the worker ended, the feed freed. */
void cv_feed_end(cv_feed *f);

#endif
