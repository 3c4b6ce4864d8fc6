/* The read pipeline of rpt, split in threads so that ten million records
 * read at disk-cache speed: producers (lines.c) parse chunks of the input
 * in parallel and turn each line into an item -- text, a command, an
 * agent, a bad line with its reason -- with no state shared with anyone;
 * the main thread (input.c) takes the items in file order and does
 * everything stateful: which kind a file is, interning, records, ROI
 * watchers, the text spool, warnings. */
#ifndef RPT_LINES_H
#define RPT_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum rpt_item_what {
  IT_TEXT,      /* application text (or a line rpt ignores): kept as text */
  IT_SKIP,      /* a bad line: warned about, counted, then kept as text */
  IT_CMD,       /* a command: kernel, barrier, copy */
  IT_AGENT,     /* an rtg agent record (also kept as text) */
  IT_HEADER,    /* an rtg header record (also kept as text): handle = its fingerprint */
  IT_REC,       /* count rtg records of pid that nobody needs as text (for duplicates) */
  IT_CHUNK_END, /* the end of a chunk (lineno: its lines); IF_FILE_END: of its file */
};

enum rpt_item_flags {
  IF_RAW = 1 << 0,        /* raw/raw_len hold the line */
  IF_DB = 1 << 1,         /* --db: print the raw line */
  IF_FILE_END = 1 << 2,   /* CHUNK_END: the last chunk of its file */
  IF_BAD_OP = 1 << 3,     /* CMD: unrecognized #op tag, #0.0.0 used */
  IF_NO_BYTES = 1 << 4,   /* CMD: a copy without a byte count */
  IF_TRACE = 1 << 5,      /* CMD: from an rtg trace (agent is an agent value) */
  IF_GPU_CMD = 1 << 6,    /* CMD: runs on a GPU queue (dispatch, barrier) */
  IF_HANDLE = 1 << 7,     /* AGENT: handle is known */
  IF_GPU_AGENT = 1 << 8,  /* AGENT: a GPU */
  IF_READ_ERROR = 1 << 9, /* CHUNK_END: the file could not be read to its end */
  IF_PID = 1 << 10,       /* the line is an rtg record of process pid */
  IF_CUT = 1 << 11,       /* SKIP: the last line, cut off in the middle of a record */
};

/* The input file became shorter while it was read. */
#define RPT_ERR_SHRANK (-1)

typedef struct rpt_item {
  uint16_t what, flags;
  uint8_t type; /* CMD: enum rpt_type */
  uint32_t pid; /* IF_PID */
  uint32_t queue, seq;
  uint32_t count;  /* REC: lines */
  uint64_t lineno; /* within its chunk, from 1; CHUNK_END: lines in the chunk */
  uint64_t start, stop;
  uint64_t agent;          /* CMD from a trace: agent value; AGENT: index; profile: device */
  uint64_t handle;         /* AGENT; HEADER: the fingerprint */
  uint64_t too_long;       /* CHUNK_END: lines over RTG_LINE_MAX */
  int err;                 /* CHUNK_END with IF_READ_ERROR: errno, or RPT_ERR_SHRANK */
  const char *why;         /* SKIP: a static message */
  uint32_t name, name_len; /* CMD: offsets in the batch arena */
  uint32_t raw, raw_len;   /* IF_RAW: the line, in the arena */
} rpt_item;

typedef struct rpt_batch {
  rpt_item *items;
  size_t n, cap;
  char *arena;
  size_t used, acap;
  bool chunk_end, file_end; /* the last batch of its chunk */
  bool last;                /* no batch follows (set by rpt_lines_next) */
} rpt_batch;

typedef struct rpt_lines_opts {
  char **paths;
  int npaths;
  bool text_items;      /* pass text lines on (-t, @LINE, %REGEX need them) */
  bool keep_text;       /* with their text (-t spool, %REGEX) */
  bool db;              /* --db */
  bool ignore_barriers; /* --ignore_barriers: barriers become text */
} rpt_lines_opts;

typedef struct rpt_lines rpt_lines;

/* Start the producers over the files; false when a thread cannot start. */
bool rpt_lines_start(rpt_lines **lp, const rpt_lines_opts *o);
/* The next batch in order (blocks); give it back with rpt_lines_release. */
rpt_batch *rpt_lines_next(rpt_lines *l);
void rpt_lines_release(rpt_lines *l, rpt_batch *b);
/* Join the producers (after the last batch) and free everything. */
void rpt_lines_finish(rpt_lines *l);

#endif
