/* The background writer: a ring of chunks waiting between the threads
 * that hand them over and the one that writes them, and a stack of
 * written buffers for a writer that recycles; see bgwrite.h. */
#include "bgwrite.h"

#include <errno.h>

#include "outfile.h"

#include <pthread.h>
#include <stdlib.h>

#define MAX_PENDING 64

typedef struct chunk {
  FILE *f;
  char *buf;
  size_t len;
} chunk;

struct rtg_bgw {
  pthread_mutex_t mu;
  pthread_cond_t more, less; /* a chunk was queued; one was written */
  chunk ring[MAX_PENDING];
  unsigned head, n, pending; /* n queued, the oldest at head; pending: at most */
  char *kept[MAX_PENDING];   /* written buffers, for rtg_bgw_take */
  unsigned nkept;
  bool busy; /* the thread holds a chunk it took from the ring */
  bool recycle, stop, threaded, failed;
  pthread_t thread;
};

/* Writes c unless a write failed before, then frees or keeps its buffer
 * (under the lock when threaded). */
static void write_chunk(rtg_bgw *w, chunk c, bool failed) {
  if (!failed && fwrite(c.buf, 1, c.len, c.f) != c.len) {
    rtg_out_note_error(errno);
    failed = true;
  }
  if (w->threaded) pthread_mutex_lock(&w->mu);
  w->failed |= failed;
  if (w->recycle && w->nkept < MAX_PENDING)
    w->kept[w->nkept++] = c.buf;
  else
    free(c.buf);
  if (w->threaded) pthread_mutex_unlock(&w->mu);
}

static void *writer(void *arg) {
  rtg_bgw *w = arg;
  pthread_mutex_lock(&w->mu);
  for (;;) {
    while (!w->n && !w->stop) pthread_cond_wait(&w->more, &w->mu);
    if (!w->n) break; /* stopping, and nothing left */
    chunk c = w->ring[w->head];
    w->head = (w->head + 1) % MAX_PENDING;
    w->n--;
    w->busy = true;
    bool failed = w->failed;
    pthread_mutex_unlock(&w->mu);
    write_chunk(w, c, failed);
    pthread_mutex_lock(&w->mu);
    w->busy = false;
    pthread_cond_broadcast(&w->less);
  }
  pthread_mutex_unlock(&w->mu);
  return NULL;
}

rtg_bgw *rtg_bgw_new(unsigned pending, bool recycle) {
  rtg_bgw *w = calloc(1, sizeof *w);
  if (!w) return NULL;
  w->pending = pending < 1 ? 1 : pending > MAX_PENDING ? MAX_PENDING : pending;
  w->recycle = recycle;
  pthread_mutex_init(&w->mu, NULL);
  pthread_cond_init(&w->more, NULL);
  pthread_cond_init(&w->less, NULL);
  w->threaded = !pthread_create(&w->thread, NULL, writer, w);
  return w;
}

bool rtg_bgw_threaded(const rtg_bgw *w) {
  return w->threaded;
}

void rtg_bgw_put(rtg_bgw *w, FILE *f, char *buf, size_t len) {
  chunk c = {f, buf, len};
  if (!w->threaded) {
    write_chunk(w, c, w->failed);
    return;
  }
  pthread_mutex_lock(&w->mu);
  while (w->n == w->pending) pthread_cond_wait(&w->less, &w->mu);
  w->ring[(w->head + w->n) % MAX_PENDING] = c;
  w->n++;
  pthread_cond_signal(&w->more);
  pthread_mutex_unlock(&w->mu);
}

char *rtg_bgw_take(rtg_bgw *w) {
  if (!w->threaded) return w->nkept ? w->kept[--w->nkept] : NULL;
  pthread_mutex_lock(&w->mu);
  while (!w->nkept) pthread_cond_wait(&w->less, &w->mu);
  char *b = w->kept[--w->nkept];
  pthread_mutex_unlock(&w->mu);
  return b;
}

void rtg_bgw_drain(rtg_bgw *w) {
  if (!w->threaded) return;
  pthread_mutex_lock(&w->mu);
  while (w->n || w->busy) pthread_cond_wait(&w->less, &w->mu);
  pthread_mutex_unlock(&w->mu);
}

bool rtg_bgw_free(rtg_bgw *w) {
  if (w->threaded) {
    pthread_mutex_lock(&w->mu);
    w->stop = true;
    pthread_cond_signal(&w->more);
    pthread_mutex_unlock(&w->mu);
    pthread_join(w->thread, NULL);
  }
  bool ok = !w->failed;
  for (unsigned i = 0; i < w->nkept; i++) free(w->kept[i]);
  pthread_mutex_destroy(&w->mu);
  pthread_cond_destroy(&w->more);
  pthread_cond_destroy(&w->less);
  free(w);
  return ok;
}
