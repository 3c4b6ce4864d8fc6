/* A chunk of a trace file cut into batches; see trace_batch.h.
 *
 * A batch owns the bytes its lines were read into (a window of the file,
 * 128 KB at a time, parsed while it is still in the cache): lines are
 * classified where they lie and handed over without a copy.  The bytes of
 * a line that the window cut in two are carried to the next batch. */
#include "trace_batch.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TAIL 4096               /* read past a chunk's end at a time, for its last line */
#define BATCH_DATA (2 * WINDOW) /* a batch reads on into its data while it has room */
#define ARENA (64u << 10)       /* reasons, and copies of records (keep_text); it grows */

/* ------------------------------------------------------------ batches */

bool batch_init(batch *b, size_t lines, size_t arena) {
  b->cap = lines;
  b->lines = malloc(lines * sizeof *b->lines);
  b->arena_cap = arena ? arena : ARENA;
  b->arena = malloc(b->arena_cap);
  return b->lines && b->arena;
}

void batch_free(batch *b) {
  free(b->lines);
  free(b->data.p);
  free(b->arena);
}

/* Room for n bytes and one more; only while no line points in. */
static bool data_room(bytes *d, size_t n) {
  if (d->p && n <= d->cap) return true;
  if (n < BATCH_DATA) n = BATCH_DATA;
  char *p = realloc(d->p, n + 1);
  if (!p) return false;
  d->p = p;
  d->cap = n;
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

/* The space a prepare hook has for a line of len bytes (rtg_reader_opts). */
static inline size_t prepare_room(const rtg_reader_opts *o, size_t len) {
  size_t n = len + 1;
  return o->prepare_scale && len <= RTG_PREPARE_ROOM_MAX ? n + o->prepare_scale * n + 256 : n;
}

#define WHY_ROOM 128 /* the parsers' reasons are shorter */

/* Classify one line into the batch (s[len] becomes its NUL).  LINE_NO_ROOM:
 * the batch is full, the line untouched; it goes to the next batch. */
static int take_line(const batch_source *r, batch *b, const cursor *c, char *s, size_t len,
                     bool unterminated, bool nul_free) {
  if (b->n == b->cap) return LINE_NO_ROOM;
  /* the arena room the line may need, made sure of before the line is
   * changed: a copy to parse (keep_text, text_kinds), what prepare keeps
   * (with transient text), then the reason of a bad line */
  bool transient = r->o.transient_text;
  bool copy = (r->o.keep_text || (transient && r->o.text_kinds)) &&
              (s[0] == 'H' || s[0] == 'R' || s[0] == 'M');
  size_t ncopy = copy ? len + 1 : 0, nkeep = r->o.prepare ? prepare_room(&r->o, len) : 0;
  size_t room = ncopy + nkeep + WHY_ROOM;
  if (b->arena_cap - b->used < room && !arena_room(b, room)) return LINE_NO_ROOM;
  s[len] = 0;
  rtg_line_how how = {.parse = r->o.parse,
                      .nul_free = nul_free,
                      .unterminated = unterminated,
                      .copy = copy ? b->arena + b->used : NULL,
                      .copy_kinds = r->o.keep_text ? RTG_PARSE_ALL : r->o.text_kinds};
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
  if (how.copied) b->used += ncopy;
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
  if (r->o.prepare) {
    rtg_line_space space = {b->arena + b->used, nkeep};
    keep = r->o.prepare(l, keep, &space, r->o.prepare_arg);
    b->used += nkeep - space.left;
  }
  if (transient) l->text = NULL; /* (its bytes are read over) */
  memcpy(&b->lines[b->n++], l, offsetof(rtg_line, u) + keep);
  return LINE_KEPT;
}

/* ------------------------------------------------------------ regular files */

static int file_fd(batch_source *r, plan_file *f) {
  pthread_mutex_lock(&r->files_mu);
  if (f->fd < 0 && !f->open_err) {
    f->fd = open(f->open_path, O_RDONLY | O_CLOEXEC);
    if (f->fd < 0) f->open_err = errno ? errno : EIO;
  }
  int fd = f->fd;
  pthread_mutex_unlock(&r->files_mu);
  return fd;
}

static void file_chunk_done(batch_source *r, plan_file *f) {
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

/* Read `more` bytes (fewer at the planned end of the file) after the
 * window; false on a read error or a file that shrank (c->err). */
static bool read_more(bytes *d, cursor *c, window *w, size_t more) {
  if (more > c->f->size - c->pos) more = (size_t)(c->f->size - c->pos);
  if (!data_room(d, w->have + more)) {
    c->err = ENOMEM;
    return false;
  }
  size_t got = read_at(w->fd, d->p + w->have, more, c->f->base + c->pos, &c->err);
  /* once per read, not per line */
  w->nul_free = (w->nul_free || !w->have) && !memchr(d->p + w->have, 0, got);
  c->pos += got;
  w->have += got;
  if (got < more && !c->err) c->err = RTG_READ_SHRANK;
  return got == more;
}

/* Forget the window's bytes before p (only while no line points in). */
static void compact(bytes *d, window *w) {
  memmove(d->p, d->p + w->p, w->have - w->p);
  w->base += w->p;
  w->have -= w->p;
  w->p = 0;
  w->nul_free = !memchr(d->p, 0, w->have);
}

/* Past the line that began in the chunk before: false when no line starts
 * in this chunk (or the file cannot be read). */
static bool seek_first(bytes *d, cursor *c, window *w) {
  for (;;) {
    uint64_t lim = c->hi - 1; /* a '\n' at hi - 1 starts a line of the next chunk */
    size_t scan = w->base + w->have < lim ? w->have : (size_t)(lim - w->base);
    char *nl = memchr(d->p, '\n', scan);
    if (nl) {
      w->p = (size_t)(nl - d->p) + 1;
      return true;
    }
    if (scan < w->have || w->base + w->have >= lim || c->pos >= c->f->size) return false;
    w->base = c->pos;
    w->have = 0;
    if (!read_more(d, c, w, WINDOW)) return false;
  }
}

/* Skip a line longer than RTG_LINE_MAX that the window holds no end of
 * (only while no line points in): false when the file ended in it. */
static bool skip_long_line(bytes *d, cursor *c, window *w) {
  c->lineno++;
  c->too_long++;
  for (;;) {
    if (c->pos >= c->f->size) return false;
    w->base = c->pos;
    w->have = w->p = 0;
    if (!read_more(d, c, w, WINDOW)) return false;
    char *nl = memchr(d->p, '\n', w->have);
    if (nl) {
      w->p = (size_t)(nl - d->p) + 1;
      return true;
    }
  }
}

/* End the batch: the bytes from p on (a line's start) are carried to the
 * next one, or (transient text: no line points into them) stay where they
 * are for it.  Returns whether the chunk is done: only when memory ran out
 * (a batch that could not take even one line). */
static bool hand_over(cursor *c, const batch *b, const bytes *d, const window *w) {
  size_t n = w->have - w->p;
  if (!b->n) {
    c->err = ENOMEM;
    return true;
  }
  if (d == &c->buf) {
    c->saved = *w;
    c->resume = true;
    return false;
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
  if (n) memcpy(c->carry, d->p + w->p, n);
  c->ncarry = n;
  return false;
}

/* A line of a file, its '\n' (and a '\r' before it) left out: counted,
 * and skipped when too long.  false: no room in the batch (uncounted). */
static bool file_line(const batch_source *r, batch *b, cursor *c, char *s, size_t len,
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
static bool fill_file(batch_source *r, batch *b, cursor *c) {
  window w = {.fd = file_fd(r, c->f)};
  if (w.fd < 0) {
    c->err = c->f->open_err;
    c->not_opened = true;
    return true;
  }
  /* where the bytes go: into the batch, whose lines point into them, or
   * (transient text) into the producer's own buffer, which no line handed
   * out points into */
  bool transient = r->o.transient_text;
  bytes *d = transient ? &c->buf : &b->data;
  if (c->resume) { /* where the batch before stopped */
    w = c->saved;
    c->resume = false;
  } else { /* the carried start of a line first */
    if (!data_room(d, c->ncarry + WINDOW)) {
      c->err = ENOMEM;
      return true;
    }
    if (c->ncarry) memcpy(d->p, c->carry, c->ncarry);
    w.have = c->ncarry;
    w.base = c->pos - c->ncarry;
    w.nul_free = !memchr(d->p, 0, w.have);
    c->ncarry = 0;
    if (c->seek_first) {
      c->seek_first = false;
      if (!read_more(d, c, &w, WINDOW) || !seek_first(d, c, &w)) return true;
    }
  }
  for (;;) {
    /* the complete lines in the window */
    while (w.base + w.p < c->hi) {
      char *s = d->p + w.p, *nl = memchr(s, '\n', w.have - w.p);
      if (!nl) break;
      size_t len = (size_t)(nl - s);
      if (!file_line(r, b, c, s, len, false, w.nul_free)) return hand_over(c, b, d, &w);
      w.p += len + 1;
    }
    if (w.base + w.p >= c->hi) return true; /* past the chunk's last line */
    if (c->pos >= c->f->size) {             /* the file's last line, without '\n' */
      if (w.have > w.p && !file_line(r, b, c, d->p + w.p, w.have - w.p, true, w.nul_free))
        return hand_over(c, b, d, &w);
      return true;
    }
    /* A line goes on past the window: read the next window after it while
     * the batch has room (its lines stay where they are), else hand over
     * what the batch holds; past the chunk's end, read only what its last
     * line may need. */
    size_t part = w.have - w.p;
    size_t more = w.base + w.have < c->hi ? WINDOW : part < TAIL ? TAIL : part;
    if (b->n && !transient) {
      if (part > RTG_LINE_MAX || d->cap - w.have < more) return hand_over(c, b, d, &w);
    } else {
      compact(d, &w);
      if (w.have > RTG_LINE_MAX) {
        if (!skip_long_line(d, c, &w)) return true;
        continue;
      }
    }
    if (!read_more(d, c, &w, more)) return true;
  }
}

/* ------------------------------------------------------------ streams */

/* Fill b with lines of a stream (stdin, a pipe), copied into its data. */
static bool fill_stream(batch_source *r, batch *b, cursor *c) {
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
    bool fits =
        (b->data.p && have + len <= b->data.cap) || (!b->n && data_room(&b->data, have + len));
    if (fits) {
      char *s = memcpy(b->data.p + have, line, len);
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

void batch_fill(batch_source *r, batch *b, cursor *c) {
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
