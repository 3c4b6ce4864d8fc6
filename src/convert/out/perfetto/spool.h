/* An output stream held back until the end: the Perfetto sink writes its
 * events before the track descriptors that must precede them in the file.
 * The bytes are kept in memory, in slabs (the first of 1 MB, then an
 * eighth of the budget, at most 8 MB), up to a budget shared by several
 * spools; a spool that would go over it moves to a
 * temporary file (beside the output, on its file system), so memory stays bounded whatever the
 * input.  Below the budget nothing is written twice: the kernel copies the bytes once, into the
 * output.
 *
 * Slabs are mapped with transparent huge pages where the system offers
 * them: touching fresh memory 4 KB at a time (a page fault each) costs
 * more than writing the bytes to a temporary file and copying them back,
 * while a fault per 2 MB costs next to nothing.
 *
 * A spool may instead live in the output itself (spool_init_in_place): its
 * bytes go to the output file as they come, from an offset that leaves
 * room for what goes before them, known only at the end; if that does not
 * fit the room, they move up to where they belong (spool_move).  That
 * takes no fresh memory, which costs more to touch than the copy (on a
 * VM, each fresh page is a fault of the host too), and the pages of an
 * output written over are the old file's.  Its bytes are
 * written by a thread of its own (bgwrite.h): the thread that makes them
 * hands over full buffers (spool_give) and goes on while the kernel
 * copies them. */
#ifndef RTG_CONVERT_SPOOL_H
#define RTG_CONVERT_SPOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bgwrite.h"

/* The size of the buffers an in-place spool takes (spool_give) */
#define SPOOL_GIVE_CAP (2u << 20)

typedef struct spool {
  const char *near; /* the output's path: the temporary file goes beside it */
  FILE *out;        /* the output (a regular file or not) */
  FILE *file;       /* the spilled part, before the slabs; NULL while none */
  uint8_t **slab;   /* the last one filled up to used */
  uint32_t nslab, cap;
  size_t slab_size;
  size_t used;
  size_t *held;  /* bytes of slabs, over all spools of the budget */
  size_t budget; /* their limit */
  bool failed;   /* a temporary file could not be made or written */
  uint64_t size; /* bytes put */
  int in_place;  /* >= 0: the output's descriptor, which holds the bytes from base */
  uint64_t base; /* in place: their offset in the output */
  rtg_bgw *bg;   /* in place: the thread that writes them (NULL: pwrite here) */
  FILE *bgf;     /* the output, which it writes from its start */
  uint32_t nbuf; /* buffers of SPOOL_GIVE_CAP made for it so far */
} spool;

/* The budget of the Perfetto sink's spools: RTG_CONVERT_PF_MEM bytes when
 * set (tests make it small to spill), else 32 MB. */
size_t spool_budget_setting(void);

void spool_init(spool *s, const char *near, FILE *out, size_t *held, size_t budget);
/* A spool whose bytes go to f from offset base (a regular file at its
 * start, written by a thread of its own, or with pwrite where none can
 * start); nothing else may touch f until spool_settle. */
void spool_init_in_place(spool *s, FILE *f, uint64_t base);
/* Hands over len bytes in *buf (of cap bytes, from malloc): an in-place
 * spool's thread writes them, and *buf becomes a buffer of
 * SPOOL_GIVE_CAP bytes it has written before or a new one (a buffer of
 * another size is copied, and stays); any other spool copies them
 * (spool_put).  false as spool_put. */
bool spool_give(spool *s, uint8_t **buf, size_t *cap, size_t len);
/* An in-place spool's bytes all written, its thread stopped, f's offset
 * back at its start; false when a write failed (s->failed). */
bool spool_settle(spool *s);
/* An in-place spool's bytes moved up from its base to offset to (above
 * it; the descriptor's offset unchanged; bounce: a scratch buffer); false
 * on a read or write error. */
bool spool_move(spool *s, uint64_t to, uint8_t *bounce, size_t bounce_cap);
/* Appends len bytes; false when they could not be kept (a temporary file
 * could not be made or written: s->failed). */
bool spool_put(spool *s, const uint8_t *b, size_t len);
/* Writes everything spooled, in order, to fd (bounce: a scratch buffer
 * for what the kernel cannot copy itself); false on a write error. */
bool spool_write(spool *s, int fd, uint8_t *bounce, size_t bounce_cap);
void spool_free(spool *s);

#endif
