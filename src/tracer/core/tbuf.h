/* Per-thread record buffers: each thread appends entries to a chain of
 * chunks taken from one shared pool; the writer drains the chains in order
 * and gives drained chunks back to the pool (tbuf.c).
 *
 * The producer's path touches only its own chunk: no lock, no allocation,
 * no shared cache line per entry.  The pool is entered once per chunk. */
#ifndef RTG_TBUF_H
#define RTG_TBUF_H

#include "tracer_internal.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { RTG_ENTRY_MAX = 8192 }; /* payload bytes of one entry, at most */

/* What a producer does when the pool is at its cap (RTG_BUFFER_FULL). */
typedef enum {
  RTG_FULL_WAIT, /* wait for the writer to give a chunk back (default) */
  RTG_FULL_DROP, /* drop the entry and count it */
} rtg_full_policy;

/* How one entry may be treated when the pool is at its cap. */
typedef enum {
  RTG_PUSH_NORMAL, /* as RTG_BUFFER_FULL says */
  RTG_PUSH_KEEP,   /* never dropped, never waits: GPU records, the summary */
} rtg_push_class;

/* Size the pool (cap in bytes) and choose the policy; before any push. */
RTG_HIDDEN void rtg_tbuf_configure(size_t cap_bytes, rtg_full_policy full);

/* Append one entry made of two parts (b may be empty).  false: dropped and
 * counted (policy drop, entry too long, or no memory at all). */
RTG_HIDDEN bool rtg_tbuf_push(int type, const void *a, size_t alen, const void *b, size_t blen,
                              rtg_push_class cls);

/* May producers wait for the writer now?  The sink says no while its writer
 * is not running (before start, at exit, in a fork child's first moments). */
RTG_HIDDEN void rtg_tbuf_set_writer_alive(bool alive);

/* Called when a producer wants the writer to run (a chunk was sealed, or
 * it waits for one); set by the sink. */
RTG_HIDDEN void rtg_tbuf_set_kick(void (*kick)(void));

/* One entry as the drainer sees it: contiguous in memory. */
typedef void (*rtg_tbuf_entry_fn)(void *ctx, uint64_t tid, int type, const char *payload,
                                  size_t len);

/* Drain every thread's chain in order, entry by entry, give drained chunks
 * back, and free the chains of exited threads for reuse.  One drainer at a
 * time (the sink's drain lock).  Returns the number of entries. */
RTG_HIDDEN uint64_t rtg_tbuf_drain(rtg_tbuf_entry_fn fn, void *ctx);

/* Fork child: the parent's entries are the parent's to write; keep the
 * calling thread's chain (emptied) and free the rest. */
RTG_HIDDEN void rtg_tbuf_after_fork_child(void);

/* Pool figures for the summary and the closing message. */
typedef struct rtg_tbuf_stats {
  uint64_t waits;       /* times a producer waited for the writer */
  uint64_t wait_ns;     /* time producers spent waiting, in all */
  uint64_t over_cap;    /* chunks taken beyond the cap (records never dropped) */
  uint64_t peak_bytes;  /* most chunk memory held at once */
  uint64_t chunk_bytes; /* the size of one chunk */
} rtg_tbuf_stats;
RTG_HIDDEN rtg_tbuf_stats rtg_tbuf_get_stats(void);

#endif
