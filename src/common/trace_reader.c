/* The trace reader; see trace_reader.h.
 *
 * Chunk g of the inputs goes to producer g % P, which cuts it into batches
 * and hands them over through its own small ring; the caller takes chunk
 * after chunk from ring after ring, so it sees every line in file order.
 * How a chunk becomes batches of lines is trace_batch.c's.  Line numbers
 * in a batch count from its chunk's start; the caller's side adds the
 * lines of the chunks before. */
#include "trace_reader.h"

#include "inrange.h"
#include "trace_batch.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define CHUNK (1u << 20) /* a producer's unit of work */
/* Batches in flight per producer: a chunk's worth (a batch is at most a
 * window of text), so that a producer never stops halfway through its
 * chunk until the caller comes to it: the producers work side by side,
 * not in turns.  With transient text a batch holds about a chunk, and 4
 * hold as many chunks; more would only touch more memory
 * (scripts/BENCHMARKS.md). */
#define NBATCH (int)(CHUNK / WINDOW)
#define NBATCH_TRANSIENT 4
/* Lines a batch holds: with transient text about a chunk's (the batch holds
 * no text, and a handoff, a thread switch, per chunk costs less than one per
 * window); else about a window's (its text is in the batch too). */
#define BATCH_LINES 2048
#define BATCH_LINES_TRANSIENT 8192
#define MAX_PRODUCERS 16
#define DEFAULT_PRODUCERS 4 /* one per CPU up to this, unless RTG_READER_THREADS says */

/* RTG_READER_STATS=1: who waited for whom, printed at close (to tell
 * whether the producers or the caller set the pace). */
typedef struct wait_stat {
  uint64_t n, ns;
} wait_stat;

static uint64_t now_ns(clockid_t c) {
  struct timespec ts;
  clock_gettime(c, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Waits on cv under mu while *count == value (a full or an empty ring). */
static void wait_while(pthread_cond_t *cv, pthread_mutex_t *mu, const size_t *count, size_t value,
                       const bool *stop, bool stats, wait_stat *w) {
  if (*count != value || (stop && *stop)) return;
  uint64_t t0 = stats ? now_ns(CLOCK_MONOTONIC) : 0;
  while (*count == value && !(stop && *stop)) pthread_cond_wait(cv, mu);
  if (stats) {
    w->n++;
    w->ns += now_ns(CLOCK_MONOTONIC) - t0;
  }
}

/* Cache lines, apart: what one thread writes often must not share a line
 * with what other threads read or write (each write would take the line
 * from their caches, and each of their reads take it back). */
#define LINE 64

typedef struct producer {
  _Alignas(LINE) struct rtg_reader *r;
  pthread_t thread;
  bool started;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  batch b[NBATCH];
  size_t head, nfull; /* full batches: nbatch slots from head */
  cursor c;
  wait_stat waited; /* for a full ring */
  uint64_t cpu_ns;  /* its thread's CPU time, at its end */
} producer;

struct rtg_reader {
  /* First: rtg_reader_next takes from it inline, writing it for every line.
   * The producers read the options for every line: on the cache line
   * after, so the caller's writes do not take the producers' line away. */
  _Alignas(LINE) rtg_reader_lines lines;
  _Alignas(LINE) batch_source src; /* the options, the files' lock */
  plan_file *files;
  size_t nfiles, nchunks;
  producer prod[MAX_PRODUCERS];
  unsigned nprod;
  unsigned nbatch;         /* batches per producer: NBATCH or NBATCH_TRANSIENT */
  bool serial;             /* no threads: the caller fills batches itself */
  bool stop;               /* under each producer's mu */
  bool stats;              /* RTG_READER_STATS */
  wait_stat caller_waited; /* for an empty ring */
  uint64_t opened_ns;
  /* the caller's side */
  size_t next_chunk;
  batch *cur;
  uint64_t base;     /* lines of the current file's chunks before (lines.base) */
  uint64_t too_long; /* of the current file so far */
  int err;           /* the first read error of the current file */
  uint64_t err_line;
  bool not_opened;
  rtg_line end; /* the END entry handed out */
  bool end_due; /* END of file end.file is the next entry */
};

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
  c->resume = false;
  if (k == 0 && r->src.o.file_ahead) r->src.o.file_ahead((uint32_t)i, r->src.o.file_ahead_arg);
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
      wait_while(&p->cv, &p->mu, &p->nfull, r->nbatch, &r->stop, r->stats, &p->waited);
      bool stop = r->stop;
      pthread_mutex_unlock(&p->mu);
      if (stop) return NULL;
      batch_fill(&r->src, &p->b[slot], &p->c);
      done = p->b[slot].chunk_end;
      slot = (slot + 1) % r->nbatch;
      pthread_mutex_lock(&p->mu);
      p->nfull++;
      pthread_cond_broadcast(&p->cv);
      pthread_mutex_unlock(&p->mu);
    }
  }
  if (r->stats) p->cpu_ns = now_ns(CLOCK_THREAD_CPUTIME_ID);
  return NULL;
}

/* The caller's side: the next batch of chunk next_chunk. */
static batch *take(rtg_reader *r) {
  producer *p = &r->prod[r->next_chunk % r->nprod];
  if (r->serial) {
    batch *b = &p->b[0];
    batch_fill(&r->src, b, &p->c);
    return b;
  }
  pthread_mutex_lock(&p->mu);
  wait_while(&p->cv, &p->mu, &p->nfull, 0, NULL, r->stats, &r->caller_waited);
  batch *b = &p->b[p->head];
  pthread_mutex_unlock(&p->mu);
  return b;
}

static void give_back(rtg_reader *r) {
  if (r->serial) return;
  producer *p = &r->prod[r->next_chunk % r->nprod];
  pthread_mutex_lock(&p->mu);
  p->head = (p->head + 1) % r->nbatch;
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

/* The first line of the next batch (rtg_reader_next's slow way). */
rtg_line *rtg_reader_next_batch(rtg_reader *r) {
  for (;;) {
    if (r->lines.next < r->lines.end) return rtg_reader_next(r);
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
    r->lines = (rtg_reader_lines){r->cur->lines, r->cur->lines + r->cur->n, r->base};
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
  r->nfiles = r->src.o.npaths;
  r->files = calloc(r->nfiles ? r->nfiles : 1, sizeof *r->files);
  if (!r->files) return false;
  for (size_t i = 0; i < r->nfiles; i++) {
    plan_file *f = &r->files[i];
    f->path = f->open_path = r->src.o.paths[i];
    f->fd = -1;
    f->streamed = true;
    f->nchunks = 1;
    f->first_chunk = r->nchunks;
    struct stat st;
    const rtg_inrange *in = rtg_inrange_find(f->path);
    if (in && in->size > 0) { /* a file of a part */
      f->open_path = in->file;
      f->base = in->off;
      f->streamed = false;
      f->size = in->size;
      f->nchunks = (size_t)((f->size + CHUNK - 1) / CHUNK);
    } else if (strcmp(f->path, "-") && stat(f->path, &st) == 0 && S_ISREG(st.st_mode) &&
               st.st_size > 0) {
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
  rtg_reader *r = aligned_alloc(LINE, (sizeof *r + LINE - 1) / LINE * LINE);
  if (!r) return NULL;
  memset(r, 0, sizeof *r);
  r->src.o = *o;
  pthread_mutex_init(&r->src.files_mu, NULL);
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  unsigned want = o->threads ? o->threads : cpus < 1 ? 1 : (unsigned)cpus;
  if (!o->threads && want > DEFAULT_PRODUCERS) want = DEFAULT_PRODUCERS;
  const char *env = o->threads ? NULL : getenv("RTG_READER_THREADS"); /* (measurements) */
  int asked = env ? atoi(env) : 0;
  if (asked > 0) want = (unsigned)asked;
  if (want > MAX_PRODUCERS) want = MAX_PRODUCERS;
  bool ok = plan(r);
  if (want > r->nchunks) want = r->nchunks ? (unsigned)r->nchunks : 1;
  r->nprod = serial ? 1 : want;
  r->nbatch = o->transient_text ? NBATCH_TRANSIENT : NBATCH;
  for (unsigned i = 0; i < r->nprod; i++) {
    producer *p = &r->prod[i];
    p->r = r;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    /* what a prepare hook makes of the lines, as much as the text of a
     * batch, times its scale */
    size_t arena = o->prepare && o->prepare_scale ? (64u << 10) + o->prepare_scale * 2 * WINDOW : 0;
    for (unsigned k = 0; k < r->nbatch; k++)
      ok &= batch_init(&p->b[k], o->transient_text ? BATCH_LINES_TRANSIENT : BATCH_LINES, arena);
  }
  if (!ok) {
    rtg_reader_close(r);
    errno = ENOMEM;
    return NULL;
  }
  r->serial = serial;
  const char *st = getenv("RTG_READER_STATS");
  r->stats = st && *st && strcmp(st, "0");
  if (r->stats) r->opened_ns = now_ns(CLOCK_MONOTONIC);
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

static void print_stats(const rtg_reader *r) {
  const double ms = 1e-6;
  fprintf(stderr,
          "rtg reader: %u producers, %zu chunks, %.1f ms open; caller: CPU %.1f ms, waited %llu "
          "times %.1f ms\n",
          r->nprod, r->nchunks, (double)(now_ns(CLOCK_MONOTONIC) - r->opened_ns) * ms,
          (double)now_ns(CLOCK_THREAD_CPUTIME_ID) * ms, (unsigned long long)r->caller_waited.n,
          (double)r->caller_waited.ns * ms);
  for (unsigned i = 0; i < r->nprod && !r->serial; i++)
    fprintf(stderr, "rtg reader: producer %u: CPU %.1f ms, waited %llu times %.1f ms\n", i,
            (double)r->prod[i].cpu_ns * ms, (unsigned long long)r->prod[i].waited.n,
            (double)r->prod[i].waited.ns * ms);
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
  }
  if (r->stats) print_stats(r);
  for (unsigned i = 0; i < r->nprod; i++) {
    producer *p = &r->prod[i];
    for (unsigned k = 0; k < r->nbatch; k++) batch_free(&p->b[k]);
    if (p->c.lr_open) rtg_linereader_close(&p->c.lr);
    free(p->c.carry);
    free(p->c.buf.p);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->cv);
  }
  for (size_t i = 0; i < r->nfiles; i++)
    if (r->files[i].fd >= 0) close(r->files[i].fd);
  pthread_mutex_destroy(&r->src.files_mu);
  free(r->files);
  free(r);
}
