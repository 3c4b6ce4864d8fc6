/* The parsing thread; see parse_thread.h. */
#include "parse_thread.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linereader.h"

#define BATCH_LINES 2048
#define ARENA (256u << 10) /* line text per batch; a longer line gets a batch of its own */
#define NBATCH 4           /* in flight: the parser may run this far ahead */

typedef struct batch {
  pt_line *v;
  size_t n;
  char *arena;
  size_t arena_cap, arena_used;
} batch;

struct pt_reader {
  rtg_linereader lr;
  const char *progress_label;
  uint64_t next_progress, lines;
  batch b[NBATCH];
  /* batches [head, tail) are full and wait for the main thread; the
   * parser fills b[tail % NBATCH] when fewer than NBATCH are full */
  uint64_t head, tail;
  bool done, stop, threaded;
  int read_errno;
  pthread_t thread;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  batch *cur; /* the main thread's batch, read without the lock */
  size_t pos; /* its next line */
  /* parser side: a line that did not fit the last batch's arena */
  char *held;
  size_t held_len;
  bool held_nul, have_held;
};

static char *arena_take(batch *b, size_t n) {
  if (b->arena_cap - b->arena_used < n) {
    if (b->arena_used) return NULL; /* full: the line goes to the next batch */
    char *a = realloc(b->arena, n);
    if (!a) return NULL;
    b->arena = a;
    b->arena_cap = n;
  }
  char *p = b->arena + b->arena_used;
  b->arena_used += n;
  return p;
}

static void show_progress(pt_reader *p) {
  rtg_linereader *lr = &p->lr;
  if (lr->bytes_read < p->next_progress || !lr->size) return;
  unsigned pct = (unsigned)(lr->bytes_read * 100 / lr->size);
  fprintf(stderr, "\rrtg-convert: %s: %3u%%", p->progress_label, pct > 100 ? 100 : pct);
  p->next_progress = lr->bytes_read + lr->size / 100;
}

/* Fills b from the input; false at the end of the input.  A line that did
 * not fit the arena is kept in `held` for the next batch. */
static bool fill(pt_reader *p, batch *b) {
  b->n = 0;
  b->arena_used = 0;
  while (b->n < BATCH_LINES) {
    char *line;
    size_t len;
    bool nul;
    if (p->have_held) {
      line = p->held, len = p->held_len, nul = p->held_nul;
      p->have_held = false;
    } else {
      line = rtg_linereader_next(&p->lr, &len, &nul);
      if (!line) {
        if (p->lr.error) p->read_errno = errno;
        break;
      }
      if (p->progress_label && (++p->lines & 0xffff) == 0) show_progress(p);
    }
    char *copy = arena_take(b, len + 1);
    if (!copy) { /* arena full: this line starts the next batch */
      p->held = line, p->held_len = len, p->held_nul = nul, p->have_held = true;
      return true;
    }
    memcpy(copy, line, len);
    copy[len] = 0;
    pt_line *l = &b->v[b->n++];
    l->line = copy;
    l->len = len;
    l->lineno = p->lr.lineno;
    l->nul = nul;
    l->unterminated = p->lr.unterminated; /* (set only once the last line is read) */
    l->why = NULL;
    l->kind = RTG_KIND_NONE;
    if (nul) continue;
    const char *why;
    l->kind = rtg_record_parse_nul_free(copy, len, &l->rec, &why); /* (nul: checked) */
    if (why) { /* may be a thread-local buffer of the parser: copy it */
      size_t wn = strlen(why) + 1;
      char *w = arena_take(b, wn);
      l->why = w ? memcpy(w, why, wn) : "malformed record";
    }
  }
  return b->n > 0;
}

static void *parser_main(void *arg) {
  pt_reader *p = arg;
  for (;;) {
    pthread_mutex_lock(&p->mu);
    while (!p->stop && p->tail - p->head == NBATCH) pthread_cond_wait(&p->cv, &p->mu);
    bool stop = p->stop;
    batch *b = &p->b[p->tail % NBATCH];
    pthread_mutex_unlock(&p->mu);
    bool more = !stop && fill(p, b);
    pthread_mutex_lock(&p->mu);
    if (more)
      p->tail++;
    else
      p->done = true;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    if (!more) return NULL;
  }
}

pt_reader *pt_open(const char *path, const char *progress_label) {
  pt_reader *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  if (!rtg_linereader_open(&p->lr, path)) {
    int e = errno;
    free(p);
    errno = e;
    return NULL;
  }
  p->progress_label = progress_label;
  for (int i = 0; i < NBATCH; i++) {
    p->b[i].v = malloc(BATCH_LINES * sizeof *p->b[i].v);
    p->b[i].arena = malloc(ARENA);
    p->b[i].arena_cap = ARENA;
    if (!p->b[i].v || !p->b[i].arena) {
      fprintf(stderr, "rtg-convert: out of memory\n");
      exit(1);
    }
  }
  pthread_mutex_init(&p->mu, NULL);
  pthread_cond_init(&p->cv, NULL);
  /* without a thread, pt_next fills one batch at a time itself */
  p->threaded = pthread_create(&p->thread, NULL, parser_main, p) == 0;
  return p;
}

pt_line *pt_next(pt_reader *p) {
  if (p->cur && p->pos < p->cur->n) return &p->cur->v[p->pos++]; /* the common case */
  if (!p->threaded) {
    batch *b = &p->b[0];
    p->cur = NULL;
    p->pos = 0;
    if (p->done || !fill(p, b)) {
      p->done = true;
      return NULL;
    }
    p->cur = b;
    return &b->v[p->pos++];
  }
  pthread_mutex_lock(&p->mu);
  if (p->cur) { /* used up: give it back to the parser */
    p->head++;
    p->cur = NULL;
    pthread_cond_broadcast(&p->cv);
  }
  while (p->tail == p->head && !p->done) pthread_cond_wait(&p->cv, &p->mu);
  if (p->tail > p->head) {
    p->cur = &p->b[p->head % NBATCH];
    p->pos = 0;
  }
  pthread_mutex_unlock(&p->mu);
  return p->cur ? &p->cur->v[p->pos++] : NULL;
}

bool pt_close(pt_reader *p, uint64_t *too_long, uint64_t *last_lineno) {
  if (p->threaded) {
    pthread_mutex_lock(&p->mu);
    p->stop = true;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    pthread_join(p->thread, NULL);
  }
  if (p->progress_label) fprintf(stderr, "\rrtg-convert: %s: 100%%\n", p->progress_label);
  *too_long = p->lr.too_long;
  *last_lineno = p->lr.lineno;
  bool ok = !p->lr.error;
  int e = p->read_errno ? p->read_errno : errno;
  rtg_linereader_close(&p->lr);
  for (int i = 0; i < NBATCH; i++) {
    free(p->b[i].v);
    free(p->b[i].arena);
  }
  pthread_mutex_destroy(&p->mu);
  pthread_cond_destroy(&p->cv);
  free(p);
  errno = e;
  return ok;
}
