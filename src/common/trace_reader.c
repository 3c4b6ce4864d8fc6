/* The trace reader; see trace_reader.h.
 *
 * Chunk g of the inputs goes to producer g % P, which cuts it into batches
 * and hands them over through its own small ring; the caller takes chunk
 * after chunk from ring after ring, so it sees every line in file order.
 * A batch owns the bytes its lines were read into (a window of the file,
 * 128 KB at a time, parsed while it is still in the cache): lines are
 * classified in place and handed over without a copy.  The bytes of a line
 * that the window cut in two are carried to the producer's next batch.
 * Line numbers in a batch count from its chunk's start; the caller's side
 * adds the lines of the chunks before. */
#include "trace_reader.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CHUNK (1u << 20)    /* a producer's unit of work */
#define WINDOW (128u << 10) /* read at a time */
#define TAIL 4096           /* read past a chunk's end at a time, for its last line */
#define BATCH_LINES 2048
#define BATCH_DATA (2 * WINDOW) /* a batch reads on into its data while it has room */
#define ARENA (64u << 10)       /* reasons, and copies of records (keep_text); it grows */
#define NBATCH 4                /* batches in flight per producer */
#define MAX_PRODUCERS 4

/* One input as planned before reading. */
typedef struct plan_file {
  const char *path;
  bool streamed; /* one chunk read with the line reader (stdin, pipes) */
  uint64_t size; /* regular file: its size when planned */
  size_t first_chunk, nchunks;
  int fd;       /* opened by the first producer that needs it, or -1 */
  int open_err; /* errno of a failed open */
  size_t left;  /* chunks not finished yet: the last one closes fd */
} plan_file;

typedef struct batch {
  rtg_line *lines;
  size_t n;
  char *data; /* the bytes the lines point into */
  size_t data_cap;
  char *arena;
  size_t used, arena_cap;
  bool chunk_end; /* the last batch of its chunk; then: */
  uint64_t chunk_lines, too_long;
  int err;
  bool not_opened;
} batch;

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
  uint64_t lineno, too_long;
  int err;
  bool not_opened;
  rtg_linereader lr; /* streamed */
  bool lr_open, held;
  char *held_line; /* streamed: a line that did not fit the last batch */
  size_t held_len;
  bool held_nul;
} cursor;

typedef struct producer {
  struct rtg_reader *r;
  pthread_t thread;
  bool started;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  batch b[NBATCH];
  size_t head, nfull; /* full batches: NBATCH slots from head */
  cursor c;
} producer;

struct rtg_reader {
  rtg_reader_opts o;
  plan_file *files;
  size_t nfiles, nchunks;
  pthread_mutex_t files_mu; /* fd, open_err, left */
  producer prod[MAX_PRODUCERS];
  unsigned nprod;
  bool serial; /* no threads: the caller fills batches itself */
  bool stop;   /* under each producer's mu */
  /* the caller's side */
  size_t next_chunk;
  batch *cur;
  size_t pos;
  uint64_t base;     /* lines of the current file's chunks before */
  uint64_t too_long; /* of the current file so far */
  int err;           /* the first read error of the current file */
  uint64_t err_line;
  bool not_opened;
  rtg_line end; /* the END entry handed out */
  bool end_due; /* END of file end.file is the next entry */
};

/* ------------------------------------------------------------ batches */

static bool batch_init(batch *b) {
  b->lines = malloc(BATCH_LINES * sizeof *b->lines);
  b->data_cap = BATCH_DATA;
  b->data = malloc(b->data_cap + 1);
  b->arena_cap = ARENA;
  b->arena = malloc(b->arena_cap);
  return b->lines && b->data && b->arena;
}

static void batch_free(batch *b) {
  free(b->lines);
  free(b->data);
  free(b->arena);
}

/* Room for n data bytes and one more; only while no line points in. */
static bool data_room(batch *b, size_t n) {
  if (n <= b->data_cap) return true;
  char *d = realloc(b->data, n + 1);
  if (!d) return false;
  b->data = d;
  b->data_cap = n;
  return true;
}

/* Room for n more bytes in the arena: false when it is full and lines
 * point in (or memory runs out). */
static bool arena_room(batch *b, size_t n) {
  if (b->arena_cap - b->used >= n) return true;
  if (b->n) return false;
  size_t cap = b->arena_cap * 2 > n ? b->arena_cap * 2 : n;
  char *a = realloc(b->arena, cap);
  if (!a) return false;
  b->arena = a;
  b->arena_cap = cap;
  return true;
}

/* ------------------------------------------------------------ lines */

enum { LINE_KEPT, LINE_DROPPED, LINE_NO_ROOM };

#define WHY_ROOM 128 /* the parsers' reasons are shorter */

/* Classify one line into the batch (s[len] becomes its NUL).  LINE_NO_ROOM:
 * the batch is full, the line untouched; it goes to the next batch. */
static int take_line(const rtg_reader *r, batch *b, const cursor *c, char *s, size_t len,
                     bool unterminated, bool nul_free) {
  if (b->n == BATCH_LINES) return LINE_NO_ROOM;
  /* the arena room the line may need, made sure of before the line is
   * changed: a copy to parse (keep_text), then the reason of a bad line */
  bool copy = r->o.keep_text && (s[0] == 'H' || s[0] == 'R');
  size_t ncopy = copy ? len + 1 : 0;
  if (b->arena_cap - b->used < ncopy + WHY_ROOM && !arena_room(b, ncopy + WHY_ROOM))
    return LINE_NO_ROOM;
  s[len] = 0;
  rtg_line_how how = {.parse = r->o.parse,
                      .nul_free = nul_free,
                      .unterminated = unterminated,
                      .copy = copy ? b->arena + b->used : NULL};
  /* The line is made here, in the cache, and copied into the batch (whose
   * memory is not) in one piece, as much of it as holds anything. */
  rtg_line tmp, *l = &tmp;
  rtg_line_classify(l, s, len, &how);
  if (!r->o.text_lines) {
    rtg_line *prev = b->n ? &b->lines[b->n - 1] : NULL;
    if (l->cls == RTG_LINE_TEXT || (l->cls == RTG_LINE_SEEN && prev && prev->cls == RTG_LINE_SEEN &&
                                    prev->pid == l->pid && prev->count < UINT32_MAX)) {
      if (l->cls == RTG_LINE_SEEN) prev->count++;
      return LINE_DROPPED;
    }
  }
  b->used += ncopy;
  if (l->why) { /* the parser's reason may live in its thread's memory */
    char *w = b->arena + b->used;
    size_t n = strnlen(l->why, WHY_ROOM - 1);
    memcpy(w, l->why, n);
    w[n] = 0;
    l->why = w;
    b->used += n + 1;
  }
  l->file = c->file;
  l->lineno = c->lineno;
  size_t keep = l->cls == RTG_LINE_RECORD    ? sizeof l->u.rec
                : l->cls == RTG_LINE_PROFILE ? sizeof l->u.hcc
                                             : 0;
  if (r->o.prepare) keep = r->o.prepare(l, keep, r->o.prepare_arg);
  memcpy(&b->lines[b->n++], l, offsetof(rtg_line, u) + keep);
  return LINE_KEPT;
}

/* ------------------------------------------------------------ regular files */

static int file_fd(rtg_reader *r, plan_file *f) {
  pthread_mutex_lock(&r->files_mu);
  if (f->fd < 0 && !f->open_err) {
    f->fd = open(f->path, O_RDONLY | O_CLOEXEC);
    if (f->fd < 0) f->open_err = errno ? errno : EIO;
  }
  int fd = f->fd;
  pthread_mutex_unlock(&r->files_mu);
  return fd;
}

static void file_chunk_done(rtg_reader *r, plan_file *f) {
  pthread_mutex_lock(&r->files_mu);
  if (--f->left == 0 && f->fd >= 0) {
    close(f->fd);
    f->fd = -1;
  }
  pthread_mutex_unlock(&r->files_mu);
}

/* Read up to n bytes at off into buf: the count, short only at the file's
 * end or on an error (*err). */
static size_t read_at(int fd, char *buf, size_t n, uint64_t off, int *err) {
  size_t got = 0;
  while (got < n) {
    ssize_t k = pread(fd, buf + got, n - got, (off_t)(off + got));
    if (k > 0) {
      got += (size_t)k;
      continue;
    }
    if (k < 0 && errno == EINTR) continue;
    if (k < 0) *err = errno ? errno : EIO;
    break;
  }
  return got;
}

/* The bytes of a batch: data[0..have) are the file's [base, base + have). */
typedef struct window {
  int fd;
  uint64_t base;
  size_t have, p; /* p: where the next line starts */
  bool nul_free;
} window;

/* Read `more` bytes (fewer at the planned end of the file) after the
 * window; false on a read error or a file that shrank (c->err). */
static bool read_more(batch *b, cursor *c, window *w, size_t more) {
  if (more > c->f->size - c->pos) more = (size_t)(c->f->size - c->pos);
  if (!data_room(b, w->have + more)) {
    c->err = ENOMEM;
    return false;
  }
  size_t got = read_at(w->fd, b->data + w->have, more, c->pos, &c->err);
  /* once per read, not per line */
  w->nul_free = (w->nul_free || !w->have) && !memchr(b->data + w->have, 0, got);
  c->pos += got;
  w->have += got;
  if (got < more && !c->err) c->err = RTG_READ_SHRANK;
  return got == more;
}

/* Forget the window's bytes before p (only while no line points in). */
static void compact(batch *b, window *w) {
  memmove(b->data, b->data + w->p, w->have - w->p);
  w->base += w->p;
  w->have -= w->p;
  w->p = 0;
  w->nul_free = !memchr(b->data, 0, w->have);
}

/* Past the line that began in the chunk before: false when no line starts
 * in this chunk (or the file cannot be read). */
static bool seek_first(batch *b, cursor *c, window *w) {
  for (;;) {
    uint64_t lim = c->hi - 1; /* a '\n' at hi - 1 starts a line of the next chunk */
    size_t scan = w->base + w->have < lim ? w->have : (size_t)(lim - w->base);
    char *nl = memchr(b->data, '\n', scan);
    if (nl) {
      w->p = (size_t)(nl - b->data) + 1;
      return true;
    }
    if (scan < w->have || w->base + w->have >= lim || c->pos >= c->f->size) return false;
    w->base = c->pos;
    w->have = 0;
    if (!read_more(b, c, w, WINDOW)) return false;
  }
}

/* Skip a line longer than RTG_LINE_MAX that the window holds no end of
 * (only while no line points in): false when the file ended in it. */
static bool skip_long_line(batch *b, cursor *c, window *w) {
  c->lineno++;
  c->too_long++;
  for (;;) {
    if (c->pos >= c->f->size) return false;
    w->base = c->pos;
    w->have = w->p = 0;
    if (!read_more(b, c, w, WINDOW)) return false;
    char *nl = memchr(b->data, '\n', w->have);
    if (nl) {
      w->p = (size_t)(nl - b->data) + 1;
      return true;
    }
  }
}

/* End the batch: the bytes from p on (a line's start) are carried to the
 * next one.  Returns whether the chunk is done: only when memory ran out
 * (a batch that could not take even one line). */
static bool hand_over(cursor *c, const batch *b, const window *w) {
  size_t n = w->have - w->p;
  if (!b->n) {
    c->err = ENOMEM;
    return true;
  }
  if (n > c->carry_cap) {
    char *nc = realloc(c->carry, n);
    if (!nc) {
      c->err = ENOMEM;
      return true;
    }
    c->carry = nc;
    c->carry_cap = n;
  }
  if (n) memcpy(c->carry, b->data + w->p, n);
  c->ncarry = n;
  return false;
}

/* A line of a file, its '\n' (and a '\r' before it) left out: counted,
 * and skipped when too long.  false: no room in the batch (uncounted). */
static bool file_line(const rtg_reader *r, batch *b, cursor *c, char *s, size_t len,
                      bool unterminated, bool nul_free) {
  c->lineno++;
  if (len > RTG_LINE_MAX) {
    c->too_long++;
    return true;
  }
  size_t n = len && s[len - 1] == '\r' ? len - 1 : len;
  if (take_line(r, b, c, s, n, unterminated, nul_free) != LINE_NO_ROOM) return true;
  c->lineno--;
  return false;
}

/* Fill b with the next lines of a regular file's chunk; true when the
 * chunk is done. */
static bool fill_file(rtg_reader *r, batch *b, cursor *c) {
  window w = {.fd = file_fd(r, c->f)};
  if (w.fd < 0) {
    c->err = c->f->open_err;
    c->not_opened = true;
    return true;
  }
  /* the carried start of a line first */
  if (!data_room(b, c->ncarry + WINDOW)) {
    c->err = ENOMEM;
    return true;
  }
  if (c->ncarry) memcpy(b->data, c->carry, c->ncarry);
  w.have = c->ncarry;
  w.base = c->pos - c->ncarry;
  w.nul_free = !memchr(b->data, 0, w.have);
  c->ncarry = 0;
  if (c->seek_first) {
    c->seek_first = false;
    if (!read_more(b, c, &w, WINDOW) || !seek_first(b, c, &w)) return true;
  }
  for (;;) {
    /* the complete lines in the window */
    while (w.base + w.p < c->hi) {
      char *s = b->data + w.p, *nl = memchr(s, '\n', w.have - w.p);
      if (!nl) break;
      size_t len = (size_t)(nl - s);
      if (!file_line(r, b, c, s, len, false, w.nul_free)) return hand_over(c, b, &w);
      w.p += len + 1;
    }
    if (w.base + w.p >= c->hi) return true; /* past the chunk's last line */
    if (c->pos >= c->f->size) {             /* the file's last line, without '\n' */
      if (w.have > w.p && !file_line(r, b, c, b->data + w.p, w.have - w.p, true, w.nul_free))
        return hand_over(c, b, &w);
      return true;
    }
    /* A line goes on past the window: read the next window after it while
     * the batch has room (its lines stay where they are), else hand over
     * what the batch holds; past the chunk's end, read only what its last
     * line may need. */
    size_t part = w.have - w.p;
    size_t more = w.base + w.have < c->hi ? WINDOW : part < TAIL ? TAIL : part;
    if (b->n) {
      if (part > RTG_LINE_MAX || b->data_cap - w.have < more) return hand_over(c, b, &w);
    } else {
      compact(b, &w);
      if (w.have > RTG_LINE_MAX) {
        if (!skip_long_line(b, c, &w)) return true;
        continue;
      }
    }
    if (!read_more(b, c, &w, more)) return true;
  }
}

/* ------------------------------------------------------------ streams */

/* Fill b with lines of a stream (stdin, a pipe), copied into its data. */
static bool fill_stream(rtg_reader *r, batch *b, cursor *c) {
  if (!c->lr_open) {
    if (!rtg_linereader_open(&c->lr, c->f->path)) {
      c->err = errno ? errno : EIO;
      c->not_opened = true;
      return true;
    }
    c->lr_open = true;
  }
  size_t have = 0;
  for (;;) {
    if (!b->n) have = 0; /* the lines dropped so far held nothing */
    char *line;
    size_t len;
    bool nul;
    if (c->held) {
      line = c->held_line, len = c->held_len, nul = c->held_nul;
      c->held = false;
    } else {
      line = rtg_linereader_next(&c->lr, &len, &nul);
      if (!line) break;
    }
    bool fits = have + len <= b->data_cap || (!b->n && data_room(b, have + len));
    if (fits) {
      char *s = memcpy(b->data + have, line, len);
      s[len] = 0;
      c->lineno = c->lr.lineno;
      fits = take_line(r, b, c, s, len, c->lr.unterminated, !nul) != LINE_NO_ROOM;
    }
    if (!fits) { /* the next batch's: the line reader keeps it until its next call */
      if (!b->n) {
        c->err = ENOMEM;
        break;
      }
      c->held = true;
      c->held_line = line, c->held_len = len, c->held_nul = nul;
      return false;
    }
    have += len + 1;
  }
  c->lineno = c->lr.lineno;
  c->too_long = c->lr.too_long;
  if (c->lr.error) c->err = errno ? errno : EIO;
  rtg_linereader_close(&c->lr);
  c->lr_open = false;
  return true;
}

/* ------------------------------------------------------------ producing */

static void cursor_start(rtg_reader *r, cursor *c, size_t g) {
  size_t i = 0;
  while (g >= r->files[i].first_chunk + r->files[i].nchunks) i++;
  plan_file *f = &r->files[i];
  size_t k = g - f->first_chunk;
  uint64_t lo = (uint64_t)k * CHUNK;
  c->f = f;
  c->file = (uint32_t)i;
  c->k = k;
  c->hi = lo + CHUNK < f->size ? lo + CHUNK : f->size;
  c->pos = k ? lo - 1 : 0;
  c->seek_first = k > 0;
  c->ncarry = 0;
  c->lineno = c->too_long = 0;
  c->err = 0;
  c->not_opened = false;
  c->held = false;
}

/* The next batch of chunk c; marks the chunk's last one. */
static void fill(rtg_reader *r, batch *b, cursor *c) {
  b->n = b->used = 0;
  bool done = c->f->streamed ? fill_stream(r, b, c) : fill_file(r, b, c);
  b->chunk_end = done;
  if (!done) return;
  b->chunk_lines = c->lineno;
  b->too_long = c->too_long;
  b->err = c->err;
  b->not_opened = c->not_opened;
  if (!c->f->streamed) file_chunk_done(r, c->f);
}

static void *producer_main(void *arg) {
  producer *p = arg;
  rtg_reader *r = p->r;
  size_t slot = 0;
  for (size_t g = (size_t)(p - r->prod); g < r->nchunks; g += r->nprod) {
    cursor_start(r, &p->c, g);
    bool done = false;
    while (!done) {
      pthread_mutex_lock(&p->mu);
      while (p->nfull == NBATCH && !r->stop) pthread_cond_wait(&p->cv, &p->mu);
      bool stop = r->stop;
      pthread_mutex_unlock(&p->mu);
      if (stop) return NULL;
      fill(r, &p->b[slot], &p->c);
      done = p->b[slot].chunk_end;
      slot = (slot + 1) % NBATCH;
      pthread_mutex_lock(&p->mu);
      p->nfull++;
      pthread_cond_broadcast(&p->cv);
      pthread_mutex_unlock(&p->mu);
    }
  }
  return NULL;
}

/* The caller's side: the next batch of chunk next_chunk. */
static batch *take(rtg_reader *r) {
  producer *p = &r->prod[r->next_chunk % r->nprod];
  if (r->serial) {
    batch *b = &p->b[0];
    fill(r, b, &p->c);
    return b;
  }
  pthread_mutex_lock(&p->mu);
  while (p->nfull == 0) pthread_cond_wait(&p->cv, &p->mu);
  batch *b = &p->b[p->head];
  pthread_mutex_unlock(&p->mu);
  return b;
}

static void give_back(rtg_reader *r) {
  if (r->serial) return;
  producer *p = &r->prod[r->next_chunk % r->nprod];
  pthread_mutex_lock(&p->mu);
  p->head = (p->head + 1) % NBATCH;
  p->nfull--;
  pthread_cond_broadcast(&p->cv);
  pthread_mutex_unlock(&p->mu);
}

/* ------------------------------------------------------------ the caller */

static size_t file_of_chunk(const rtg_reader *r, size_t g) {
  size_t i = 0;
  while (g >= r->files[i].first_chunk + r->files[i].nchunks) i++;
  return i;
}

rtg_line *rtg_reader_next(rtg_reader *r) {
  for (;;) {
    if (r->cur && r->pos < r->cur->n) {
      rtg_line *l = &r->cur->lines[r->pos++];
      l->lineno += r->base;
      return l;
    }
    if (r->end_due) {
      r->end_due = false;
      return &r->end;
    }
    if (r->cur) { /* used up */
      batch *b = r->cur;
      r->cur = NULL;
      bool chunk_end = b->chunk_end;
      if (chunk_end) {
        if (b->err && !r->err) {
          r->err = b->err;
          r->err_line = r->base + b->chunk_lines;
          r->not_opened = b->not_opened;
        }
        r->base += b->chunk_lines;
        r->too_long += b->too_long;
      }
      give_back(r);
      if (chunk_end) {
        size_t f = file_of_chunk(r, r->next_chunk);
        bool last = r->next_chunk + 1 == r->files[f].first_chunk + r->files[f].nchunks;
        r->next_chunk++;
        if (r->serial && r->next_chunk < r->nchunks) cursor_start(r, &r->prod[0].c, r->next_chunk);
        if (last) {
          r->end = (rtg_line){.cls = RTG_LINE_END, .file = (uint32_t)f};
          r->end.u.end.lines = r->base;
          r->end.u.end.too_long = r->too_long;
          r->end.u.end.err = r->err;
          r->end.u.end.err_line = r->err_line;
          r->end.u.end.not_opened = r->not_opened;
          r->end.lineno = r->base;
          r->base = r->too_long = r->err_line = 0;
          r->err = 0;
          r->not_opened = false;
          r->end_due = true;
        }
        continue;
      }
    }
    if (r->next_chunk >= r->nchunks) return NULL;
    r->cur = take(r);
    r->pos = 0;
  }
}

void rtg_reader_progress(const rtg_reader *r, uint64_t *done, uint64_t *size) {
  *done = *size = 0;
  if (!r->nchunks) return;
  size_t g = r->next_chunk < r->nchunks ? r->next_chunk : r->nchunks - 1;
  const plan_file *f = &r->files[file_of_chunk(r, g)];
  *size = f->streamed ? 0 : f->size;
  uint64_t at = (uint64_t)(g - f->first_chunk) * CHUNK;
  *done = at < *size ? at : *size;
}

/* ------------------------------------------------------------ start, stop */

/* Size each regular file and count its chunks. */
static bool plan(rtg_reader *r) {
  r->nfiles = r->o.npaths;
  r->files = calloc(r->nfiles ? r->nfiles : 1, sizeof *r->files);
  if (!r->files) return false;
  for (size_t i = 0; i < r->nfiles; i++) {
    plan_file *f = &r->files[i];
    f->path = r->o.paths[i];
    f->fd = -1;
    f->streamed = true;
    f->nchunks = 1;
    f->first_chunk = r->nchunks;
    struct stat st;
    if (strcmp(f->path, "-") && stat(f->path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
      f->streamed = false; /* (an empty-looking file, such as /proc's, is streamed) */
      f->size = (uint64_t)st.st_size;
      f->nchunks = (size_t)((f->size + CHUNK - 1) / CHUNK);
    }
    f->left = f->nchunks;
    r->nchunks += f->nchunks;
  }
  return true;
}

static rtg_reader *open_reader(const rtg_reader_opts *o, bool serial) {
  rtg_reader *r = calloc(1, sizeof *r);
  if (!r) return NULL;
  r->o = *o;
  pthread_mutex_init(&r->files_mu, NULL);
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  unsigned want = o->threads ? o->threads : cpus < 1 ? 1 : (unsigned)cpus;
  if (want > MAX_PRODUCERS) want = MAX_PRODUCERS;
  bool ok = plan(r);
  if (want > r->nchunks) want = r->nchunks ? (unsigned)r->nchunks : 1;
  r->nprod = serial ? 1 : want;
  for (unsigned i = 0; i < r->nprod; i++) {
    producer *p = &r->prod[i];
    p->r = r;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    for (int k = 0; k < NBATCH; k++) ok &= batch_init(&p->b[k]);
  }
  if (!ok) {
    rtg_reader_close(r);
    errno = ENOMEM;
    return NULL;
  }
  r->serial = serial;
  if (serial) {
    if (r->nchunks) cursor_start(r, &r->prod[0].c, 0);
    return r;
  }
  for (unsigned i = 0; i < r->nprod; i++) {
    if (pthread_create(&r->prod[i].thread, NULL, producer_main, &r->prod[i]) != 0) {
      /* chunks are dealt out by the number of producers: rather than miss
       * those of the missing ones, read without threads */
      rtg_reader_close(r);
      return open_reader(o, true);
    }
    r->prod[i].started = true;
  }
  return r;
}

rtg_reader *rtg_reader_open(const rtg_reader_opts *o) {
  return open_reader(o, o->serial);
}

void rtg_reader_close(rtg_reader *r) {
  if (!r) return;
  for (unsigned i = 0; i < r->nprod; i++) {
    producer *p = &r->prod[i];
    pthread_mutex_lock(&p->mu);
    r->stop = true;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
  }
  for (unsigned i = 0; i < r->nprod; i++) {
    producer *p = &r->prod[i];
    if (p->started) pthread_join(p->thread, NULL);
    for (int k = 0; k < NBATCH; k++) batch_free(&p->b[k]);
    if (p->c.lr_open) rtg_linereader_close(&p->c.lr);
    free(p->c.carry);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->cv);
  }
  for (size_t i = 0; i < r->nfiles; i++)
    if (r->files[i].fd >= 0) close(r->files[i].fd);
  pthread_mutex_destroy(&r->files_mu);
  free(r->files);
  free(r);
}
