/* The producers of the read pipeline (see lines.h).  Regular files are
 * mapped and cut into chunks of about 1 MB at line ends; chunk g goes to
 * producer g % P (P = online CPUs, at most 4), which recognizes and parses
 * its lines and hands the results, in batches, through its own small ring.
 * The main thread takes chunk after chunk from ring after ring, so it sees
 * every line in file order.  A pipe (or a file mmap refuses) is one chunk
 * read with the common line reader.  Line numbers in items are relative to
 * their chunk; the main thread adds the lines of the chunks before.
 *
 * Lines, told apart one by one:
 *   - "profile:" lines (HCC_PROFILE=2) become kernel, barrier, copy
 *     commands; a copy is named "<direction>_<bytes>_bytes" as the original;
 *   - rtg trace records: dispatch, barrier and copy records become commands
 *     (their agent value is numbered into GPU<n> by the main thread);
 *     agent records are passed on for that numbering;
 *   - everything else is text.
 * Which kind a file is (the first kind it meets) is decided by the main
 * thread, which alone sees a file from its start. */
#include "lines.h"

#include "diag.h"
#include "hcc_profile.h"
#include "linereader.h"
#include "rpt.h"
#include "rtg/record.h"

#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define NBATCH 4
#define BATCH_ITEMS 16384
#define ARENA (4u << 20) /* > 2 * RTG_LINE_MAX: a line and a name always fit */
#define CHUNK (1u << 20)
#define MAX_PRODUCERS 4

/* One input as planned before the producers start. */
typedef struct plan_file {
  const char *path;
  const char *map; /* mapped regular file, or NULL: one streamed chunk */
  size_t size;
  size_t first_chunk, nchunks;
} plan_file;

/* A producer and its ring of batches. */
typedef struct producer {
  struct rpt_lines *l;
  pthread_t thread;
  bool started;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  char *copy;       /* the chunk being parsed, copied out of the map */
  size_t copy_cap;
  rpt_batch batch[NBATCH];
  size_t head, nfull; /* full batches: NBATCH slots from head, counted */
  rpt_batch *cur;
  size_t cur_slot;
  char *scratch; /* a copy of a trace line: rtg_record_parse edits it */
  size_t scratch_cap;
} producer;

struct rpt_lines {
  rpt_lines_opts o;
  plan_file *files;
  size_t nchunks;
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

/* A line that stays text (or is skipped, then kept as text). */
static void text_item(producer *l, uint64_t lineno, const char *line, size_t len, const char *why,
                      unsigned flags) {
  if (!why && !flags && !l->l->o.text_items) return; /* nobody needs it */
  rpt_item *it = item(l, lineno, why ? IT_SKIP : IT_TEXT, len + 1);
  it->why = why;
  it->flags |= (uint16_t)flags;
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
  if (has_bytes) len += (size_t)sprintf(b->arena + b->used + n, "_%llu_bytes", (unsigned long long)bytes);
  b->arena[b->used + len] = 0;
  b->used += len + 1;
  it->name_len = (uint32_t)len;
}

static void profile_line(producer *l, const char *line, size_t len, uint64_t lineno) {
  const rpt_lines_opts *o = &l->l->o;
  unsigned db = o->db ? IF_DB : 0;
  rtg_hcc_profile p;
  const char *why = NULL;
  if (memchr(line, 0, len)) return text_item(l, lineno, line, len, "NUL bytes in a profile line", db);
  if (rtg_hcc_profile_parse(line, len, &p, &why) < 0) return text_item(l, lineno, line, len, why, db);
  if (!(p.flags & RTG_HCC_HAS_TIMES))
    return text_item(l, lineno, line, len, "profile line without start and stop times", db);
  if (p.stop < p.start)
    return text_item(l, lineno, line, len, "profile line whose stop is before its start", db);
  int type = profile_type(&p);
  if (type < 0) return text_item(l, lineno, line, len, "profile line of an unknown command type", db);
  if (o->ignore_barriers && type == RPT_BARRIER) return text_item(l, lineno, line, len, NULL, db);
  if (p.device > UINT16_MAX) return text_item(l, lineno, line, len, "device number out of range", db);

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

static void trace_line(producer *l, const char *line, size_t len, uint64_t lineno) {
  const rpt_lines_opts *o = &l->l->o;
  const char *kw;
  size_t kwlen;
  bool is_agent = false, is_cmd = false;
  if (trace_keyword(line, len, &kw, &kwlen)) {
    is_agent = kwlen == 5 && !memcmp(kw, "agent", 5) && !memcmp(line, "RTG:", 4);
    is_cmd = !memcmp(line, "HSA:", 4) && ((kwlen == 8 && !memcmp(kw, "dispatch", 8)) ||
                                          (kwlen == 7 && !memcmp(kw, "barrier", 7)) ||
                                          (kwlen == 4 && !memcmp(kw, "copy", 4)));
  }
  if (!is_agent && !is_cmd) return text_item(l, lineno, line, len, NULL, 0);
  unsigned db = o->db && is_cmd ? IF_DB : 0;
  if (memchr(line, 0, len)) return text_item(l, lineno, line, len, "NUL bytes in a trace record", db);

  if (len + 1 > l->scratch_cap) {
    free(l->scratch);
    l->scratch_cap = len + 1 + 256;
    l->scratch = xmalloc(l->scratch_cap);
  }
  memcpy(l->scratch, line, len);
  l->scratch[len] = 0;
  rtg_record rec;
  const char *why = NULL;
  enum rtg_kind k = rtg_record_parse(l->scratch, len, &rec, &why);
  if (k == RTG_KIND_AGENT) {
    rpt_item *it = item(l, lineno, IT_AGENT, len + 1);
    it->agent = rec.u.AGENT.index;
    it->handle = rec.u.AGENT.handle;
    if (RTG_HAS(&rec, RTG_FIELD(AGENT, handle))) it->flags |= IF_HANDLE;
    if (!strcasecmp(rec.u.AGENT.type, "gpu")) it->flags |= IF_GPU_AGENT;
    if (o->keep_text) keep_raw(l, it, line, len);
    return;
  }
  if (k != RTG_KIND_DISPATCH && k != RTG_KIND_BARRIER && k != RTG_KIND_COPY)
    return text_item(l, lineno, line, len, k == RTG_KIND_NONE ? why : NULL, db);
  if (k == RTG_KIND_BARRIER && o->ignore_barriers) return text_item(l, lineno, line, len, NULL, db);

  uint64_t start, stop;
  if (k == RTG_KIND_DISPATCH) start = rec.u.DISPATCH.start, stop = rec.u.DISPATCH.stop;
  else if (k == RTG_KIND_BARRIER) start = rec.u.BARRIER.start, stop = rec.u.BARRIER.stop;
  else start = rec.u.COPY.start, stop = rec.u.COPY.stop;
  if (stop < start) return text_item(l, lineno, line, len, "record whose stop is before its start", db);

  rpt_item *it = item(l, lineno, IT_CMD, 2 * len + 64);
  it->flags |= (uint16_t)(db | IF_TRACE);
  if (db || o->keep_text) keep_raw(l, it, line, len); /* it may turn out to be text */
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
    it->name = put(l->cur, name, strlen(name));
    it->name_len = (uint32_t)strlen(name);
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

/* One line of a mapped chunk [*p, end): without '\n' (nor a '\r' before
 * it), NOT NUL-terminated (the parsers take lengths).  Lines longer than
 * RTG_LINE_MAX are skipped and counted, as the common line reader does. */
static const char *map_next(const char **p, const char *end, size_t *len, uint64_t *lineno,
                            uint64_t *too_long) {
  while (*p < end) {
    const char *s = *p, *nl = memchr(s, '\n', (size_t)(end - s));
    const char *e = nl ? nl : end;
    *p = nl ? nl + 1 : end;
    ++*lineno;
    size_t n = (size_t)(e - s);
    if (n > RTG_LINE_MAX) {
      ++*too_long;
      continue;
    }
    if (n && s[n - 1] == '\r') n--;
    *len = n;
    return s;
  }
  return NULL;
}

static void one_line(producer *l, const char *line, size_t len, uint64_t lineno) {
  if (len >= 8 && line[0] == 'p' && !memcmp(line, "profile:", 8))
    profile_line(l, line, len, lineno);
  else if (len > 4 && (line[0] == 'H' || line[0] == 'R') && line[3] == ':')
    trace_line(l, line, len, lineno);
  else
    text_item(l, lineno, line, len, NULL, 0);
}

/* Start of chunk k of a mapped file: just after the first line end at or
 * after k * CHUNK - 1 (every producer computes the same cuts). */
static size_t chunk_start(const plan_file *f, size_t k) {
  if (k == 0) return 0;
  if (k >= f->nchunks) return f->size;
  size_t from = k * CHUNK - 1;
  const char *nl = memchr(f->map + from, '\n', f->size - from);
  return nl ? (size_t)(nl - f->map) + 1 : f->size;
}

/* Mapped files and SIGBUS.  Reading a page of a mapping past the end of
 * its file (the file was truncated after it was mapped: a trace still
 * being rewritten, a log rotated) raises SIGBUS.  The producers touch a
 * map only to copy a chunk out of it, under a guard: the handler jumps
 * back out of the copy, and the chunk ends with a read error
 * (RPT_ERR_SHRANK) instead of the process dying.  Parsing works on the
 * copy, so no half-made item is left behind by the jump. */
static __thread sigjmp_buf *volatile bus_guard; /* volatile: memcpy and memchr are builtins that the stores must not move across */

static void on_sigbus(int sig, siginfo_t *si, void *uc) {
  (void)si, (void)uc;
  sigjmp_buf *g = bus_guard;
  if (g) siglongjmp(*g, 1);
  signal(sig, SIG_DFL); /* not ours: die of it as before */
  raise(sig);
}

static void init_sigbus(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_sigbus;
  sa.sa_flags = SA_SIGINFO | SA_NODEFER;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGBUS, &sa, NULL);
}

static void install_sigbus(void) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, init_sigbus);
}

/* Copy chunk k of f into l->copy; false when the file shrank under it. */
static bool copy_chunk(producer *l, const plan_file *f, size_t k, size_t *from_off, size_t *n) {
  sigjmp_buf jb;
  if (sigsetjmp(jb, 1)) {
    bus_guard = NULL;
    return false;
  }
  bus_guard = &jb;
  __asm__ volatile("" ::: "memory");
  size_t s = chunk_start(f, k), e = chunk_start(f, k + 1);
  if (e - s + 1 > l->copy_cap) {
    bus_guard = NULL;
    free(l->copy);
    l->copy_cap = e - s + 1;
    l->copy = xmalloc(l->copy_cap);
    bus_guard = &jb;
  }
  memcpy(l->copy, f->map + s, e - s);
  __asm__ volatile("" ::: "memory");
  bus_guard = NULL;
  *from_off = s;
  *n = e - s;
  return true;
}

static void do_chunk(producer *l, size_t g) {
  const plan_file *f = l->l->files;
  while (g >= f->first_chunk + f->nchunks) f++;
  size_t k = g - f->first_chunk;
  uint64_t lineno = 0, too_long = 0;
  int err = 0;
  if (f->map) {
    size_t off = 0, n = 0;
    if (copy_chunk(l, f, k, &off, &n)) {
      const char *p = l->copy, *end = l->copy + n, *line;
      size_t len;
      while ((line = map_next(&p, end, &len, &lineno, &too_long))) one_line(l, line, len, lineno);
      /* Everything needed was copied: let the chunk's pages go, so the
       * resident size stays that of the records, not of the input. */
      const char *from = f->map + off, *mend = from + n;
      uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE), a = ((uintptr_t)from + pg - 1) & ~(pg - 1),
                b = (uintptr_t)mend & ~(pg - 1);
      if (b > a) madvise((void *)a, b - a, MADV_DONTNEED);
    } else {
      err = RPT_ERR_SHRANK;
    }
  } else {
    rtg_linereader lr;
    if (!rtg_linereader_open(&lr, f->path)) {
      err = errno;
    } else {
      size_t len;
      bool nul;
      const char *line;
      while ((line = rtg_linereader_next(&lr, &len, &nul))) one_line(l, line, len, lr.lineno);
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

/* Map each regular file and count its chunks. */
static void plan(rpt_lines *ls) {
  ls->files = calloc((size_t)ls->o.npaths, sizeof *ls->files);
  if (!ls->files) abort();
  for (int i = 0; i < ls->o.npaths; i++) {
    plan_file *f = &ls->files[i];
    f->path = ls->o.paths[i];
    f->nchunks = 1;
    f->first_chunk = ls->nchunks;
    struct stat st;
    int fd = strcmp(f->path, "-") ? open(f->path, O_RDONLY | O_CLOEXEC) : -1;
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
        (uint64_t)st.st_size < SIZE_MAX / 2) {
      void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
      if (m != MAP_FAILED) {
        install_sigbus();
        madvise(m, (size_t)st.st_size, MADV_SEQUENTIAL);
        f->map = m;
        f->size = (size_t)st.st_size;
        f->nchunks = (f->size + CHUNK - 1) / CHUNK;
      }
    }
    if (fd >= 0) close(fd);
    ls->nchunks += f->nchunks;
  }
}

bool rpt_lines_start(rpt_lines **lp, const rpt_lines_opts *o) {
  rpt_lines *ls = calloc(1, sizeof *ls);
  if (!ls) return false;
  ls->o = *o;
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
    free(l->copy);
  }
  for (int i = 0; i < ls->o.npaths; i++)
    if (ls->files[i].map) munmap((void *)ls->files[i].map, ls->files[i].size);
  free(ls->files);
  free(ls);
}
