/* A sink's records to its worker thread, in order; see feed.h. */
#define _GNU_SOURCE /* sched_getaffinity */
#include "feed.h"

#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

#include "xalloc.h"

typedef struct block {
  struct block *next;
  size_t cap, used;
  unsigned char data[];
} block;

struct cv_feed {
  pthread_t th;
  pthread_mutex_t mu;
  pthread_cond_t filled, freed;
  cv_feed_fn fn;
  void *arg;
  block *head, *tail; /* full, in order */
  block *spare;       /* done, to fill again */
  block *cur;         /* being filled */
  unsigned nblocks;   /* of CV_FEED_BLOCK_BYTES, in use or spare */
  unsigned max_blocks;
  bool done;
};

static void *worker(void *arg) {
  cv_feed *f = arg;
  pthread_mutex_lock(&f->mu);
  for (;;) {
    while (!f->head && !f->done) pthread_cond_wait(&f->filled, &f->mu);
    block *b = f->head;
    if (!b) break;
    f->head = b->next;
    if (!f->head) f->tail = NULL;
    pthread_mutex_unlock(&f->mu);
    f->fn(f->arg, b->data, b->used);
    pthread_mutex_lock(&f->mu);
    if (b->cap == CV_FEED_BLOCK_BYTES) {
      b->next = f->spare;
      f->spare = b;
    } else {
      free(b); /* (one record's, larger than a block) */
    }
    pthread_cond_signal(&f->freed);
  }
  pthread_mutex_unlock(&f->mu);
  return NULL;
}

/* The CPUs this process may run on. */
static long cpus(void) {
  cpu_set_t set;
  if (!sched_getaffinity(0, sizeof set, &set)) return CPU_COUNT(&set);
  return sysconf(_SC_NPROCESSORS_ONLN);
}

cv_feed *cv_feed_start(cv_feed_fn fn, void *arg, unsigned max_blocks) {
  if (cpus() < 2) return NULL;
  cv_feed *f = rtg_xcalloc(1, sizeof *f, "a sink's worker");
  f->fn = fn;
  f->arg = arg;
  f->max_blocks = max_blocks ? max_blocks : 1;
  pthread_mutex_init(&f->mu, NULL);
  pthread_cond_init(&f->filled, NULL);
  pthread_cond_init(&f->freed, NULL);
  if (pthread_create(&f->th, NULL, worker, f)) {
    pthread_mutex_destroy(&f->mu);
    pthread_cond_destroy(&f->filled);
    pthread_cond_destroy(&f->freed);
    free(f);
    return NULL;
  }
  return f;
}

static void submit(cv_feed *f, block *b) {
  b->next = NULL;
  pthread_mutex_lock(&f->mu);
  if (f->tail)
    f->tail->next = b;
  else
    f->head = b;
  f->tail = b;
  pthread_cond_signal(&f->filled);
  pthread_mutex_unlock(&f->mu);
}

/* A block with room for need bytes: a spare one, a new one, or one given
 * back. */
static block *take(cv_feed *f, size_t need) {
  block *b = NULL;
  if (need > CV_FEED_BLOCK_BYTES) {
    b = rtg_xmalloc(sizeof *b + need, "a sink's records");
    b->cap = need;
  } else {
    pthread_mutex_lock(&f->mu);
    while (!f->spare && f->nblocks >= f->max_blocks) pthread_cond_wait(&f->freed, &f->mu);
    if (f->spare) {
      b = f->spare;
      f->spare = b->next;
    } else {
      f->nblocks++;
    }
    pthread_mutex_unlock(&f->mu);
    if (!b) {
      b = rtg_xmalloc(sizeof *b + CV_FEED_BLOCK_BYTES, "a sink's records");
      b->cap = CV_FEED_BLOCK_BYTES;
    }
  }
  b->used = 0;
  return b;
}

void *cv_feed_put(cv_feed *f, size_t need) {
  if (!f->cur || f->cur->cap - f->cur->used < need) {
    if (f->cur) submit(f, f->cur);
    f->cur = take(f, need);
  }
  void *p = f->cur->data + f->cur->used;
  f->cur->used += need;
  return p;
}

void cv_feed_end(cv_feed *f) {
  if (!f) return;
  if (f->cur && f->cur->used)
    submit(f, f->cur);
  else
    free(f->cur);
  f->cur = NULL;
  pthread_mutex_lock(&f->mu);
  f->done = true;
  pthread_cond_signal(&f->filled);
  pthread_mutex_unlock(&f->mu);
  pthread_join(f->th, NULL);
  while (f->spare) {
    block *b = f->spare;
    f->spare = b->next;
    free(b);
  }
  pthread_mutex_destroy(&f->mu);
  pthread_cond_destroy(&f->filled);
  pthread_cond_destroy(&f->freed);
  free(f);
}
