/* The background writer of the tools' outputs: one thread that writes
 * chunks of bytes to their files in the order they are handed over, so
 * that the thread making the bytes goes on while the kernel copies the
 * last ones (on a disk, writeback makes write() block now and then).
 * rtg-convert's Chrome JSON (jsonw_async.c) and its CSV files
 * (out/csv/csv_rocprofv3.c) write through it.
 *
 * A chunk's buffer (from malloc) goes with it.  Once written it is freed,
 * or, for a writer that recycles, kept for rtg_bgw_take: an output that
 * fills a few large buffers in turn takes them back instead of allocating
 * new ones.  After a write fails nothing more is written. */
#ifndef RTG_BGWRITE_H
#define RTG_BGWRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct rtg_bgw rtg_bgw;

/* Starts the thread: at most pending chunks wait to be written
 * (rtg_bgw_put waits beyond), so memory stays bounded.  When the thread
 * cannot start, each chunk is written at once by rtg_bgw_put.  NULL only
 * when out of memory. */
rtg_bgw *rtg_bgw_new(unsigned pending, bool recycle);
/* true when a thread of its own writes (false: rtg_bgw_put does). */
bool rtg_bgw_threaded(const rtg_bgw *w);
/* Hands over buf, holding len bytes for f. */
void rtg_bgw_put(rtg_bgw *w, FILE *f, char *buf, size_t len);
/* A writer that recycles: a buffer handed over before and written since,
 * waiting for one if none is yet (there must be one in flight). */
char *rtg_bgw_take(rtg_bgw *w);
/* Returns once every chunk handed over is written (before a file is
 * closed or written by anyone else). */
void rtg_bgw_drain(rtg_bgw *w);
/* Drains, stops the thread, frees the writer and the buffers it kept;
 * false when a write failed. */
bool rtg_bgw_free(rtg_bgw *w);

#endif
