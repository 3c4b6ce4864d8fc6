/* The producers of the read pipeline (see lines.h).  Regular files are
 * cut into chunks of about 1 MB at line ends; chunk g goes to producer
 * g % P (P = online CPUs, at most 4), which reads it with pread into its
 * own buffer (one copy, from the page cache, as wc does), recognizes and
 * parses its lines there and hands the results, in batches, through its own
 * small ring.  The main thread takes chunk after chunk from ring after
 * ring, so it sees every line in file order.  A pipe (or an empty-looking
 * file such as /proc's) is one chunk read with the common line reader.
 * Line numbers in items are relative to their chunk; the main thread adds
 * the lines of the chunks before.
 *
 * Lines, told apart one by one:
 *   - "profile:" lines (HCC_PROFILE=2) become kernel, barrier, copy
 *     commands; a copy is named "<direction>_<bytes>_bytes" as the original;
 *   - rtg trace records: dispatch, barrier and copy records become commands
 *     (their agent value is numbered into GPU<n> by the main thread);
 *     agent and header records are passed on for that numbering and for
 *     duplicates; every other record is text with its pid (or, when nobody
 *     needs the text, only counted per pid);
 *   - everything else is text.
 * Which kind a file is (the first kind it meets) is decided by the main
 * thread, which alone sees a file from its start.  A last line without
 * '\n' that is a record, whole or not, was cut off while it was written
 * (a number in it may be cut short): it is a bad line, as in rtg-convert. */
#include "lines.h"

#include "dedup.h"
#include "diag.h"
#include "hcc_profile.h"
#include "linereader.h"
#include "rpt.h"
#include "rtg/record.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#define NBATCH 4
#define BATCH_ITEMS 16384
#define ARENA (4u << 20) /* > 2 * RTG_LINE_MAX: a line and a name always fit */
#define CHUNK (1u << 20)
#define WINDOW (128u << 10) /* read at a time: parsed while in the cache */
#define TAIL 4096           /* read past a chunk's end, for its last line */
#define MAX_PRODUCERS 4

/* One input as planned before the producers start. */
typedef struct plan_file {
  const char *path;
  bool streamed; /* one chunk read with the line reader (stdin, pipes) */
  uint64_t size; /* regular file: its size when planned */
  size_t first_chunk, nchunks;
  int fd;       /* opened by the first producer that needs it, or -1 */
  int open_err; /* errno of a failed open */
  size_t left;  /* chunks not finished yet: the last one closes fd */
} plan_file;

/* A producer and its ring of batches. */
typedef struct producer {
  struct rpt_lines *l;
  pthread_t thread;
  bool started;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  char *buf; /* the chunk being parsed, read from the file (writable) */
  size_t buf_cap;
  bool nul_free; /* no NUL byte in buf (or in the line being parsed) */
  rpt_batch batch[NBATCH];
  size_t head, nfull; /* full batches: NBATCH slots from head, counted */
  rpt_batch *cur;
  size_t cur_slot;
  char *scratch; /* a copy of a trace line when its raw text must stay */
  size_t scratch_cap;
} producer;

struct rpt_lines {
  rpt_lines_opts o;
  plan_file *files;
  size_t nchunks;
  pthread_mutex_t files_mu; /* fd, open_err, left of the files */
  producer prod[MAX_PRODUCERS];
  unsigned nprod;
  size_t next_chunk; /* the consumer's position */
};

static void *xmalloc(size_t n) {
  void *p = malloc(n);
  if (!p) {
    rtg_error("out of memory");
    exit(1);
  }
  return p;
}

/* ------------------------------------------------------------ the rings */

/* Producer: publish the current batch and take the next free slot. */
static void push(producer *l) {
  pthread_mutex_lock(&l->mu);
  l->nfull++;
  pthread_cond_broadcast(&l->cv);
  while (l->nfull == NBATCH) pthread_cond_wait(&l->cv, &l->mu);
  pthread_mutex_unlock(&l->mu);
  l->cur_slot = (l->cur_slot + 1) % NBATCH;
  l->cur = &l->batch[l->cur_slot];
  l->cur->n = l->cur->used = 0;
  l->cur->chunk_end = l->cur->file_end = false;
}

rpt_batch *rpt_lines_next(rpt_lines *ls) {
  producer *l = &ls->prod[ls->next_chunk % ls->nprod];
  pthread_mutex_lock(&l->mu);
  while (l->nfull == 0) pthread_cond_wait(&l->cv, &l->mu);
  rpt_batch *b = &l->batch[l->head];
  pthread_mutex_unlock(&l->mu);
  b->last = b->chunk_end && ls->next_chunk + 1 == ls->nchunks;
  return b;
}

void rpt_lines_release(rpt_lines *ls, rpt_batch *b) {
  producer *l = &ls->prod[ls->next_chunk % ls->nprod];
  if (b->chunk_end) ls->next_chunk++;
  pthread_mutex_lock(&l->mu);
  l->head = (l->head + 1) % NBATCH;
  l->nfull--;
  pthread_cond_broadcast(&l->cv);
  pthread_mutex_unlock(&l->mu);
}

/* ----------------------------------------------------------- producing */

/* A new item, with room in the arena for `bytes` more. */
static rpt_item *item(producer *l, uint64_t lineno, unsigned what, size_t bytes) {
  rpt_batch *b = l->cur;
  if (b->n == b->cap || b->acap - b->used < bytes) {
    push(l);
    b = l->cur;
  }
  /* Only the members every reader looks at are cleared here (a memset of
   * the whole item costs more than the parse of a short line); each kind
   * of item sets its own members. */
  rpt_item *it = &b->items[b->n++];
  it->what = (uint16_t)what;
  it->flags = 0;
  it->lineno = lineno;
  it->why = NULL;
  it->raw_len = 0;
  return it;
}

static uint32_t put(rpt_batch *b, const char *s, size_t n) {
  uint32_t off = (uint32_t)b->used;
  memcpy(b->arena + b->used, s, n);
  b->arena[b->used + n] = 0;
  b->used += n + 1;
  return off;
}

/* The raw line, when the main thread will need it (text, --db). */
static void keep_raw(producer *l, rpt_item *it, const char *line, size_t len) {
  it->raw = put(l->cur, line, len);
  it->raw_len = (uint32_t)len;
  it->flags |= IF_RAW;
}

/* A line that stays text (or is skipped, then kept as text).  pid: the
 * process of an rtg record line, or -1 for other text. */
static void text_item(producer *l, uint64_t lineno, const char *line, size_t len, const char *why,
                      unsigned flags, int64_t pid) {
  if (!why && !flags && !l->l->o.text_items) {
    if (pid < 0) return; /* nobody needs it */
    /* only counted, for duplicates: one item for a run of one pid */
    rpt_batch *b = l->cur;
    rpt_item *last = b->n ? &b->items[b->n - 1] : NULL;
    if (last && last->what == IT_REC && last->pid == (uint32_t)pid && last->count < UINT32_MAX) {
      last->count++;
      return;
    }
    rpt_item *it = item(l, lineno, IT_REC, 0);
    it->flags = IF_PID;
    it->pid = (uint32_t)pid;
    it->count = 1;
    return;
  }
  rpt_item *it = item(l, lineno, why ? IT_SKIP : IT_TEXT, len + 1);
  it->why = why;
  it->flags |= (uint16_t)flags;
  if (pid >= 0) it->flags |= IF_PID, it->pid = (uint32_t)pid;
  if (l->l->o.keep_text || (flags & IF_DB)) keep_raw(l, it, line, len);
}

static int profile_type(const rtg_hcc_profile *p) {
  static const unsigned char lens[RPT_NTYPES] = {6, 7, 4, 7}; /* of rpt_type_names */
  for (int t = 0; t < RPT_NTYPES; t++)
    if (p->type_len == lens[t] && !memcmp(p->type, rpt_type_names[t], lens[t])) return t;
  return -1;
}

/* "HostToDevice" + 16384 -> "HostToDevice_16384_bytes" into the arena. */
static void copy_name(rpt_batch *b, rpt_item *it, const char *dir, size_t n, bool has_bytes,
                      uint64_t bytes) {
  it->name = (uint32_t)b->used;
  memcpy(b->arena + b->used, dir, n);
  size_t len = n;
  if (has_bytes)
    len += (size_t)sprintf(b->arena + b->used + n, "_%llu_bytes", (unsigned long long)bytes);
  b->arena[b->used + len] = 0;
  b->used += len + 1;
  it->name_len = (uint32_t)len;
}

static void profile_line(producer *l, const char *line, size_t len, uint64_t lineno) {
  const rpt_lines_opts *o = &l->l->o;
  unsigned db = o->db ? IF_DB : 0;
  rtg_hcc_profile p;
  const char *why = NULL;
  if (!l->nul_free && memchr(line, 0, len))
    return text_item(l, lineno, line, len, "NUL bytes in a profile line", db, -1);
  if (rtg_hcc_profile_parse(line, len, &p, &why) < 0)
    return text_item(l, lineno, line, len, why, db, -1);
  if (!(p.flags & RTG_HCC_HAS_TIMES))
    return text_item(l, lineno, line, len, "profile line without start and stop times", db, -1);
  if (p.stop < p.start)
    return text_item(l, lineno, line, len, "profile line whose stop is before its start", db, -1);
  int type = profile_type(&p);
  if (type < 0)
    return text_item(l, lineno, line, len, "profile line of an unknown command type", db, -1);
  if (o->ignore_barriers && type == RPT_BARRIER)
    return text_item(l, lineno, line, len, NULL, db, -1);
  if (p.device > UINT16_MAX)
    return text_item(l, lineno, line, len, "device number out of range", db, -1);

  rpt_item *it = item(l, lineno, IT_CMD, 2 * len + 64);
  it->flags |= (uint16_t)db;
  if (db || o->keep_text) keep_raw(l, it, line, len); /* it may turn out to be text */
  it->type = (uint8_t)type;
  it->start = p.start;
  it->stop = p.stop;
  it->agent = p.device;
  it->queue = p.queue;
  it->seq = (uint32_t)p.seq;
  if (p.flags & RTG_HCC_BAD_OP) it->flags |= IF_BAD_OP;
  if (type == RPT_COPY || type == RPT_COPYSLO) {
    if (!(p.flags & RTG_HCC_HAS_BYTES)) it->flags |= IF_NO_BYTES;
    copy_name(l->cur, it, p.name, p.name_len, p.flags & RTG_HCC_HAS_BYTES, p.bytes);
    return;
  }
  it->name = put(l->cur, p.name, p.name_len);
  it->name_len = (uint32_t)p.name_len;
  /* The original's barrier rule: a name "depcnt,acquire,release" (three
   * parts) marks a barrier with dependencies, whose start is moved to its
   * stop so it does not hide the commands it waits for. */
  if (type == RPT_BARRIER) {
    const char *c1 = memchr(p.name, ',', p.name_len);
    const char *c2 = c1 ? memchr(c1 + 1, ',', p.name_len - (size_t)(c1 + 1 - p.name)) : NULL;
    if (c2 && !memchr(c2 + 1, ',', p.name_len - (size_t)(c2 + 1 - p.name))) it->start = it->stop;
  }
}

/* The word after "PREFIX: pid:P tid:T ", without parsing the whole line:
 * most trace lines are API calls that rpt only keeps as text. */
static bool trace_keyword(const char *line, size_t len, const char **kw, size_t *kwlen) {
  const char *e = line + len, *s = memchr(line, ':', len < 8 ? len : 8);
  if (!s) return false;
  s++;
  for (int f = 0; f < 3; f++) {
    while (s < e && *s == ' ') s++;
    const char *w = s;
    while (s < e && *s != ' ') s++;
    if (f == 2) {
      *kw = w;
      *kwlen = (size_t)(s - w);
      return s > w;
    }
  }
  return false;
}

/* The pid of a line that starts as an rtg record ("PREFIX: pid:P tid:T "),
 * or -1. */
static int64_t record_pid(const char *line, size_t len) {
  const char *p = line, *e = line + len;
  if (len > 5 && p[3] == ':' &&
      (!memcmp(p, "HSA", 3) || !memcmp(p, "HIP", 3) || !memcmp(p, "RTG", 3)))
    p += 4;
  else if (len > 7 && !memcmp(p, "ROCTX:", 6))
    p += 6;
  else
    return -1;
  if (e - p < 5 || memcmp(p, " pid:", 5)) return -1;
  p += 5;
  uint64_t pid = 0;
  const char *d = p;
  for (; p < e && *p >= '0' && *p <= '9'; p++)
    if ((pid = pid * 10 + (unsigned)(*p - '0')) > UINT32_MAX) return -1;
  if (p == d || e - p < 6 || memcmp(p, " tid:", 5) || p[5] < '0' || p[5] > '9') return -1;
  return (int64_t)pid;
}

/* The line to parse in place: the line itself, or a copy when its raw text
 * must stay as it was (rtg_record_parse edits the line). */
static char *parse_copy(producer *l, char *line, size_t len, bool keep) {
  if (!keep) return line;
  if (len + 1 > l->scratch_cap) {
    free(l->scratch);
    l->scratch_cap = len + 1 + 256;
    l->scratch = xmalloc(l->scratch_cap);
  }
  memcpy(l->scratch, line, len);
  l->scratch[len] = 0;
  return l->scratch;
}

static void trace_line(producer *l, char *line, size_t len, uint64_t lineno) {
  const rpt_lines_opts *o = &l->l->o;
  const char *kw;
  size_t kwlen;
  bool is_agent = false, is_header = false, is_cmd = false;
  if (trace_keyword(line, len, &kw, &kwlen)) {
    if (!memcmp(line, "RTG:", 4)) {
      is_agent = kwlen == 5 && !memcmp(kw, "agent", 5);
      is_header = kwlen == 5 && !memcmp(kw, "trace", 5);
    }
    is_cmd = !memcmp(line, "HSA:", 4) &&
             ((kwlen == 8 && !memcmp(kw, "dispatch", 8)) ||
              (kwlen == 7 && !memcmp(kw, "barrier", 7)) || (kwlen == 4 && !memcmp(kw, "copy", 4)));
  }
  if (!is_agent && !is_cmd && !is_header)
    return text_item(l, lineno, line, len, NULL, 0, record_pid(line, len));
  unsigned db = o->db && is_cmd ? IF_DB : 0;
  /* (NUL bytes: the parser says so, unless the window had none) */
  bool keep = db || o->keep_text;
  char *buf = parse_copy(l, line, len, keep);
  rtg_record rec;
  const char *why = NULL;
  enum rtg_kind k = l->nul_free ? rtg_record_parse_nul_free(buf, len, &rec, &why)
                                : rtg_record_parse(buf, len, &rec, &why);
  if (k == RTG_KIND_HEADER) {
    rpt_item *it = item(l, lineno, IT_HEADER, len + 1);
    it->flags = IF_PID;
    it->pid = rec.pid;
    it->handle = rtg_header_fingerprint(&rec);
    if (o->keep_text) keep_raw(l, it, line, len);
    return;
  }
  if (k == RTG_KIND_AGENT) {
    rpt_item *it = item(l, lineno, IT_AGENT, len + 1);
    it->flags = IF_PID;
    it->pid = rec.pid;
    it->agent = rec.u.AGENT.index;
    it->handle = rec.u.AGENT.handle;
    if (RTG_HAS(&rec, RTG_FIELD(AGENT, handle))) it->flags |= IF_HANDLE;
    if (!strcasecmp(rec.u.AGENT.type, "gpu")) it->flags |= IF_GPU_AGENT;
    if (o->keep_text) keep_raw(l, it, line, len);
    return;
  }
  if (k != RTG_KIND_DISPATCH && k != RTG_KIND_BARRIER && k != RTG_KIND_COPY) {
    if (k == RTG_KIND_NONE && why && !is_header)
      return text_item(l, lineno, line, len, why, db, -1);
    /* a header line that does not parse stays text, as before */
    return text_item(l, lineno, line, len, NULL, db,
                     k == RTG_KIND_NONE ? record_pid(line, len) : (int64_t)rec.pid);
  }
  if (k == RTG_KIND_BARRIER && o->ignore_barriers)
    return text_item(l, lineno, line, len, NULL, db, rec.pid);

  uint64_t start, stop;
  if (k == RTG_KIND_DISPATCH)
    start = rec.u.DISPATCH.start, stop = rec.u.DISPATCH.stop;
  else if (k == RTG_KIND_BARRIER)
    start = rec.u.BARRIER.start, stop = rec.u.BARRIER.stop;
  else
    start = rec.u.COPY.start, stop = rec.u.COPY.stop;
  if (stop < start)
    return text_item(l, lineno, line, len, "record whose stop is before its start", db, -1);

  rpt_item *it = item(l, lineno, IT_CMD, 2 * len + 64);
  it->flags |= (uint16_t)(db | IF_TRACE | IF_PID);
  it->pid = rec.pid;
  if (keep) keep_raw(l, it, line, len); /* it may turn out to be text */
  it->start = start;
  it->stop = stop;
  const char *name;
  switch (k) {
  case RTG_KIND_DISPATCH:
    it->type = RPT_KERNEL;
    it->flags |= IF_GPU_CMD;
    it->queue = (uint32_t)rec.u.DISPATCH.queue;
    it->seq = (uint32_t)rec.u.DISPATCH.id;
    it->agent = rec.u.DISPATCH.agent;
    name = rec.u.DISPATCH.name;
    it->name_len = (uint32_t)strlen(name);
    it->name = put(l->cur, name, it->name_len);
    break;
  case RTG_KIND_BARRIER:
    it->type = RPT_BARRIER;
    it->flags |= IF_GPU_CMD;
    it->queue = (uint32_t)rec.u.BARRIER.queue;
    it->seq = (uint32_t)rec.u.BARRIER.id;
    it->agent = rec.u.BARRIER.agent;
    it->name = put(l->cur, "", 0); /* the original's HCC_PROFILE barriers had no name */
    it->name_len = 0;
    break;
  default:
    it->type = RPT_COPY;
    it->seq = RTG_HAS(&rec, RTG_FIELD(COPY, id)) ? (uint32_t)rec.u.COPY.id : 0;
    it->queue = RTG_HAS(&rec, RTG_FIELD(COPY, engine)) ? (uint32_t)rec.u.COPY.engine : 0;
    it->agent = rec.u.COPY.agent;
    name = RTG_HAS(&rec, RTG_FIELD(COPY, kind)) ? rec.u.COPY.kind : "copy";
    copy_name(l->cur, it, name, strlen(name), RTG_HAS(&rec, RTG_FIELD(COPY, bytes)),
              rec.u.COPY.bytes);
    break;
  }
}

/* A last line without '\n' is a record cut off while it was written when
 * it is one, whole or not: a "profile:" line, or a line rtg_record_parse
 * takes or rejects (foreign text is not). */
static bool cut_record(producer *l, const char *line, size_t len) {
  if (len >= 8 && !memcmp(line, "profile:", 8)) return true;
  char *copy = parse_copy(l, (char *)line, len, true);
  rtg_record rec;
  const char *why = NULL;
  return rtg_record_parse(copy, len, &rec, &why) != RTG_KIND_NONE || why;
}

/* One line, without its '\n' (nor a '\r' before it), writable, with one
 * more byte after it that may be overwritten (the parsers take lengths). */
static void one_line(producer *l, char *line, size_t len, uint64_t lineno, bool unterminated) {
  if (unterminated && cut_record(l, line, len))
    text_item(l, lineno, line, len, "last line cut off (no newline): a partial record", IF_CUT, -1);
  else if (len >= 8 && line[0] == 'p' && !memcmp(line, "profile:", 8))
    profile_line(l, line, len, lineno);
  else if (len > 4 && (line[0] == 'H' || line[0] == 'R') &&
           (line[3] == ':' || (len > 6 && line[5] == ':')))
    trace_line(l, line, len, lineno);
  else
    text_item(l, lineno, line, len, NULL, 0, -1);
}

/* ------------------------------------------------------ reading chunks */

/* The file of chunk g, opened on first use. */
static int file_fd(rpt_lines *ls, plan_file *f) {
  pthread_mutex_lock(&ls->files_mu);
  if (f->fd < 0 && !f->open_err) {
    f->fd = open(f->path, O_RDONLY | O_CLOEXEC);
    if (f->fd < 0) f->open_err = errno ? errno : EIO;
  }
  int fd = f->fd;
  pthread_mutex_unlock(&ls->files_mu);
  return fd;
}

/* A chunk is done: the last one of its file closes it. */
static void file_chunk_done(rpt_lines *ls, plan_file *f) {
  pthread_mutex_lock(&ls->files_mu);
  if (--f->left == 0 && f->fd >= 0) {
    close(f->fd);
    f->fd = -1;
  }
  pthread_mutex_unlock(&ls->files_mu);
}

/* Read [off, off + n) of the file at buf[at..]: the bytes read, short only
 * when the file ended (shrank) or on an error (*err). */
static size_t read_at(int fd, char *buf, size_t n, uint64_t off, int *err) {
  size_t got = 0;
  while (got < n) {
    ssize_t r = pread(fd, buf + got, n - got, (off_t)(off + got));
    if (r > 0) {
      got += (size_t)r;
      continue;
    }
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) *err = errno ? errno : EIO;
    break;
  }
  return got;
}

/* Room in the buffer for n bytes and one more (its contents stay). */
static void ensure_buf(producer *l, size_t n) {
  if (n + 1 <= l->buf_cap) return;
  char *nb = realloc(l->buf, n + 1);
  if (!nb) {
    rtg_error("out of memory");
    exit(1);
  }
  l->buf = nb;
  l->buf_cap = n + 1;
}

/* The window of a chunk being parsed: buf[0..n) holds the file's bytes at
 * [off, off + n). */
typedef struct window {
  int fd;
  const plan_file *f;
  uint64_t off;
  size_t n;
  int err;
} window;

/* Keep buf[from..n), then read up to `more` bytes after it; false (w->err
 * set) when the file ended early or could not be read. */
static bool slide(producer *l, window *w, size_t from, size_t more) {
  size_t have = w->n - from;
  uint64_t at = w->off + w->n;
  if (more > w->f->size - at) more = (size_t)(w->f->size - at);
  if (from) memmove(l->buf, l->buf + from, have);
  w->off += from;
  w->n = have;
  ensure_buf(l, have + more);
  size_t got = read_at(w->fd, l->buf + have, more, at, &w->err);
  w->n += got;
  l->nul_free = !memchr(l->buf, 0, w->n); /* once per window, not per line */
  if (got < more && !w->err) w->err = RPT_ERR_SHRANK;
  return got == more;
}

/* Chunk k of a regular file: the lines that start in [k * CHUNK,
 * (k + 1) * CHUNK), the last one read to its end past the chunk.  It is
 * read WINDOW bytes at a time, so that lines are parsed while their bytes
 * are still in the cache, starting one byte before the chunk (to see
 * whether a line starts at its first byte).  Returns 0 or the read error. */
static int file_chunk(producer *l, plan_file *f, size_t k, uint64_t *lineno, uint64_t *too_long) {
  window w = {.fd = file_fd(l->l, f), .f = f};
  if (w.fd < 0) return f->open_err;
  uint64_t lo = (uint64_t)k * CHUNK, hi = lo + CHUNK < f->size ? lo + CHUNK : f->size;
  w.off = k ? lo - 1 : 0;
  if (!slide(l, &w, 0, WINDOW)) return w.err;
  size_t p = 0; /* the next line starts at buf[p] */
  if (k) {      /* past the line that began in the chunk before */
    for (;;) {
      size_t lim = w.off + w.n < hi - 1 ? w.n : (size_t)(hi - 1 - w.off);
      char *nl = memchr(l->buf, '\n', lim);
      if (nl) {
        p = (size_t)(nl - l->buf) + 1;
        break;
      }
      if (lim < w.n || w.off + w.n >= hi - 1) return 0; /* no line starts in this chunk */
      if (!slide(l, &w, w.n, WINDOW)) return w.err;
    }
  }
  while (w.off + p < hi) {
    char *s = l->buf + p, *nl = memchr(s, '\n', w.n - p);
    if (nl) {
      ++*lineno;
      size_t len = (size_t)(nl - s);
      if (len > RTG_LINE_MAX) {
        ++*too_long;
      } else {
        if (len && s[len - 1] == '\r') len--;
        one_line(l, s, len, *lineno, false);
      }
      p += (size_t)(nl - s) + 1;
      continue;
    }
    if (w.off + w.n >= f->size) { /* the last line of the file, without '\n' */
      ++*lineno;
      size_t len = w.n - p;
      if (len > RTG_LINE_MAX) {
        ++*too_long;
      } else {
        if (len && s[len - 1] == '\r') len--;
        one_line(l, s, len, *lineno, true);
      }
      break;
    }
    size_t have = w.n - p;
    if (have > RTG_LINE_MAX) { /* too long to keep: only look for its end */
      ++*lineno;
      ++*too_long;
      for (;;) {
        if (w.off + w.n >= f->size) return 0; /* it was the last line */
        if (!slide(l, &w, w.n, WINDOW)) return w.err;
        char *e = memchr(l->buf, '\n', w.n);
        if (e) {
          p = (size_t)(e - l->buf) + 1;
          break;
        }
      }
      continue;
    }
    /* The line goes on past the window: keep it, read the next window
     * (past the chunk, only as much as the last line may need). */
    size_t more = w.off + w.n < hi ? WINDOW : have < TAIL ? TAIL : have;
    if (!slide(l, &w, p, more)) return w.err;
    p = 0;
  }
  return 0;
}

static void do_chunk(producer *l, size_t g) {
  plan_file *f = l->l->files;
  while (g >= f->first_chunk + f->nchunks) f++;
  size_t k = g - f->first_chunk;
  uint64_t lineno = 0, too_long = 0;
  int err = 0;
  if (!f->streamed) {
    err = file_chunk(l, f, k, &lineno, &too_long);
    file_chunk_done(l->l, f);
  } else {
    rtg_linereader lr;
    if (!rtg_linereader_open(&lr, f->path)) {
      err = errno;
    } else {
      size_t len;
      bool nul;
      char *line;
      while ((line = rtg_linereader_next(&lr, &len, &nul))) {
        l->nul_free = !nul;
        one_line(l, line, len, lr.lineno, lr.unterminated);
      }
      lineno = lr.lineno;
      too_long = lr.too_long;
      if (lr.error) err = errno ? errno : EIO;
      rtg_linereader_close(&lr);
    }
  }
  /* The chunk's end travels in an item, so it always has a batch slot. */
  rpt_item *it = item(l, lineno, IT_CHUNK_END, 0);
  it->too_long = too_long;
  it->err = err;
  if (err) it->flags |= IF_READ_ERROR;
  if (k + 1 == f->nchunks) it->flags |= IF_FILE_END;
  l->cur->chunk_end = true;
  push(l);
}

static void *producer_main(void *arg) {
  producer *l = arg;
  rpt_lines *ls = l->l;
  for (size_t g = (size_t)(l - ls->prod); g < ls->nchunks; g += ls->nprod) do_chunk(l, g);
  return NULL;
}

/* Size each regular file and count its chunks. */
static void plan(rpt_lines *ls) {
  ls->files = calloc((size_t)ls->o.npaths, sizeof *ls->files);
  if (!ls->files) abort();
  for (int i = 0; i < ls->o.npaths; i++) {
    plan_file *f = &ls->files[i];
    f->path = ls->o.paths[i];
    f->fd = -1;
    f->streamed = true;
    f->nchunks = 1;
    f->first_chunk = ls->nchunks;
    struct stat st;
    if (strcmp(f->path, "-") && stat(f->path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
      f->streamed = false;
      f->size = (uint64_t)st.st_size;
      f->nchunks = (size_t)((f->size + CHUNK - 1) / CHUNK);
    }
    f->left = f->nchunks;
    ls->nchunks += f->nchunks;
  }
}

bool rpt_lines_start(rpt_lines **lp, const rpt_lines_opts *o) {
  rpt_lines *ls = calloc(1, sizeof *ls);
  if (!ls) return false;
  ls->o = *o;
  pthread_mutex_init(&ls->files_mu, NULL);
  plan(ls);
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  ls->nprod = cpus < 1 ? 1 : cpus > MAX_PRODUCERS ? MAX_PRODUCERS : (unsigned)cpus;
  if (ls->nprod > ls->nchunks) ls->nprod = ls->nchunks ? (unsigned)ls->nchunks : 1;
  for (unsigned p = 0; p < ls->nprod; p++) {
    producer *l = &ls->prod[p];
    l->l = ls;
    for (int i = 0; i < NBATCH; i++) {
      l->batch[i].cap = BATCH_ITEMS;
      l->batch[i].items = xmalloc(BATCH_ITEMS * sizeof(rpt_item));
      l->batch[i].acap = ARENA;
      l->batch[i].arena = xmalloc(ARENA);
    }
    l->cur = &l->batch[0];
    pthread_mutex_init(&l->mu, NULL);
    pthread_cond_init(&l->cv, NULL);
  }
  for (unsigned p = 0; p < ls->nprod; p++) {
    if (pthread_create(&ls->prod[p].thread, NULL, producer_main, &ls->prod[p]) != 0) {
      rpt_lines_finish(ls);
      return false;
    }
    ls->prod[p].started = true;
  }
  *lp = ls;
  return true;
}

void rpt_lines_finish(rpt_lines *ls) {
  if (!ls) return;
  for (unsigned p = 0; p < ls->nprod; p++) {
    producer *l = &ls->prod[p];
    if (l->started) pthread_join(l->thread, NULL);
    for (int i = 0; i < NBATCH; i++) {
      free(l->batch[i].items);
      free(l->batch[i].arena);
    }
    pthread_mutex_destroy(&l->mu);
    pthread_cond_destroy(&l->cv);
    free(l->scratch);
    free(l->buf);
  }
  for (int i = 0; i < ls->o.npaths; i++)
    if (ls->files[i].fd >= 0) close(ls->files[i].fd);
  pthread_mutex_destroy(&ls->files_mu);
  free(ls->files);
  free(ls);
}
