/* Writing full buffers of several files on a thread of its own, so that a
 * sink formats the next rows while the kernel copies the last ones into
 * the page cache (on a disk, writeback makes write() block now and then).
 * Used by the CSV sink, whose rows go to many files at once. */
#ifndef RTG_CONVERT_CHUNKW_H
#define RTG_CONVERT_CHUNKW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct chunkw chunkw;

/* Starts the writer thread; when it cannot, chunks are written at once by
 * the caller.  NULL only when out of memory. */
chunkw *chunkw_new(void);
/* Hands over buf (from malloc: the writer frees it) holding len bytes for
 * f; waits while too many chunks are pending (memory stays bounded). */
void chunkw_put(chunkw *w, FILE *f, char *buf, size_t len);
/* Returns when every chunk handed over has been written (before f is
 * closed). */
void chunkw_drain(chunkw *w);
/* Drains, stops the thread, frees; false when a write failed. */
bool chunkw_free(chunkw *w);

#endif
