/* An output stream held back until the end: the Perfetto sink writes its
 * events before the track descriptors that must precede them in the file.
 * Full buffers are kept in memory, up to a budget shared by several
 * spools; a spool that would go over it moves to a temporary file (beside
 * the output, on its file system), so memory stays bounded whatever the
 * input.  Below the budget nothing is written twice: the kernel copies
 * the bytes once, into the output. */
#ifndef RTG_CONVERT_SPOOL_H
#define RTG_CONVERT_SPOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct spool_chunk {
  uint8_t *buf;
  size_t len;
} spool_chunk;

typedef struct spool {
  const char *near; /* the output's path: the temporary file goes beside it */
  FILE *out;        /* the output (a regular file or not) */
  FILE *file;       /* the spilled part, before the chunks; NULL while none */
  spool_chunk *chunk;
  uint32_t n, cap;
  size_t *held;  /* bytes in memory, over all spools of the budget */
  size_t budget; /* their limit */
  bool failed;   /* a temporary file could not be made or written */
} spool;

/* The budget of the Perfetto sink's spools: RTG_CONVERT_PF_MEM bytes when
 * set (tests make it small to spill), else 64 MB. */
size_t spool_budget_setting(void);

void spool_init(spool *s, const char *near, FILE *out, size_t *held, size_t budget);
/* Takes the len bytes of *buf (a buffer of cap bytes from malloc) and
 * gives the caller a fresh buffer of cap bytes; false when out of memory
 * for it (then *buf is unchanged and its bytes were written). */
bool spool_put(spool *s, uint8_t **buf, size_t len, size_t cap);
/* Writes everything spooled, in order, to fd (bounce: a scratch buffer
 * for what the kernel cannot copy itself); false on a write error. */
bool spool_write(spool *s, int fd, uint8_t *bounce, size_t bounce_cap);
void spool_free(spool *s);

#endif
