/* One chunk of a trace file cut into batches of classified lines: the
 * work of the trace reader's producers (trace_reader.c), kept apart from
 * the threads and rings that hand the batches over.  Private to the
 * reader. */
#ifndef RTG_TRACE_BATCH_H
#define RTG_TRACE_BATCH_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace_reader.h"

#define WINDOW (128u << 10) /* read at a time */

/* One input as planned before reading. */
typedef struct plan_file {
  const char *path;
  const char *open_path; /* the file that holds it (inrange.h: a range of another) */
  uint64_t base;         /* where its bytes start there */
  bool streamed;         /* one chunk read with the line reader (stdin, pipes) */
  uint64_t size;         /* regular file: its size when planned */
  size_t first_chunk, nchunks;
  int fd;       /* opened by the first producer that needs it, or -1 */
  int open_err; /* errno of a failed open */
  size_t left;  /* chunks not finished yet: the last one closes fd */
} plan_file;

/* Bytes read from a file (allocated on first use). */
typedef struct bytes {
  char *p;
  size_t cap; /* (one more byte is there, for a last line's NUL) */
} bytes;

typedef struct batch {
  rtg_line *lines;
  size_t n, cap;
  bytes data; /* the bytes the lines point into (unless transient_text) */
  char *arena;
  size_t used, arena_cap;
  bool chunk_end; /* the last batch of its chunk; then: */
  uint64_t chunk_lines, too_long;
  int err;
  bool not_opened;
} batch;

/* The bytes being cut into lines: [0..have) of them are the file's
 * [base, base + have). */
typedef struct window {
  int fd;
  uint64_t base;
  size_t have, p; /* p: where the next line starts */
  bool nul_free;
} window;

/* Where a producer is in its chunk, between two batches. */
typedef struct cursor {
  plan_file *f;
  uint32_t file;
  size_t k;        /* chunk k of f */
  uint64_t hi;     /* the chunk owns the lines that start before hi */
  uint64_t pos;    /* file offset of the next byte to read */
  bool seek_first; /* the line that began in the chunk before is still to skip */
  char *carry;     /* bytes read but not yet cut into lines: a line's start */
  size_t ncarry, carry_cap;
  bytes buf;    /* transient_text: the producer's own (the batches hold no text), */
  window saved; /* where the last batch stopped in it */
  bool resume;
  uint64_t lineno, too_long;
  int err;
  bool not_opened;
  rtg_linereader lr; /* streamed */
  bool lr_open, held;
  char *held_line; /* streamed: a line that did not fit the last batch */
  size_t held_len;
  bool held_nul;
} cursor;

/* What the batches of every chunk share: the options, and the files
 * (their fd, open_err and left under files_mu). */
typedef struct batch_source {
  rtg_reader_opts o;
  pthread_mutex_t files_mu;
} batch_source;

/* arena: its first size (0: the default) */
bool batch_init(batch *b, size_t lines, size_t arena);
void batch_free(batch *b);

/* The next batch of the chunk at c (lines numbered from the chunk's
 * start); the chunk's last one is marked chunk_end, with its counts. */
void batch_fill(batch_source *src, batch *b, cursor *c);

#endif
