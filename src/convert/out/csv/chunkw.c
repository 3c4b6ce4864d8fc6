/* A ring of pending chunks between the sink's thread and one writer
 * thread (chunkw.h). */
#include "chunkw.h"

#include <pthread.h>
#include <stdlib.h>

#define PENDING 8 /* chunks handed over and not written yet, at most */

typedef struct chunk {
  FILE *f;
  char *buf;
  size_t len;
} chunk;

struct chunkw {
  pthread_mutex_t mu;
  pthread_cond_t more, less; /* a chunk was queued; one was written */
  chunk ring[PENDING];
  unsigned head, n; /* n queued, the oldest at head */
  bool busy;        /* the writer holds a chunk it took from the ring */
  bool stop, threaded, failed;
  pthread_t thread;
};

static void write_chunk(chunkw *w, chunk c) {
  bool ok = fwrite(c.buf, 1, c.len, c.f) == c.len;
  free(c.buf);
  if (!ok) {
    pthread_mutex_lock(&w->mu);
    w->failed = true;
    pthread_mutex_unlock(&w->mu);
  }
}

static void *writer(void *arg) {
  chunkw *w = arg;
  pthread_mutex_lock(&w->mu);
  for (;;) {
    while (!w->n && !w->stop) pthread_cond_wait(&w->more, &w->mu);
    if (!w->n) break; /* stopping, and nothing left */
    chunk c = w->ring[w->head];
    w->head = (w->head + 1) % PENDING;
    w->n--;
    w->busy = true;
    pthread_mutex_unlock(&w->mu);
    write_chunk(w, c);
    pthread_mutex_lock(&w->mu);
    w->busy = false;
    pthread_cond_broadcast(&w->less);
  }
  pthread_mutex_unlock(&w->mu);
  return NULL;
}

chunkw *chunkw_new(void) {
  chunkw *w = calloc(1, sizeof *w);
  if (!w) return NULL;
  pthread_mutex_init(&w->mu, NULL);
  pthread_cond_init(&w->more, NULL);
  pthread_cond_init(&w->less, NULL);
  w->threaded = !pthread_create(&w->thread, NULL, writer, w);
  return w;
}

void chunkw_put(chunkw *w, FILE *f, char *buf, size_t len) {
  chunk c = {f, buf, len};
  if (!w->threaded) {
    write_chunk(w, c);
    return;
  }
  pthread_mutex_lock(&w->mu);
  while (w->n == PENDING) pthread_cond_wait(&w->less, &w->mu);
  w->ring[(w->head + w->n) % PENDING] = c;
  w->n++;
  pthread_cond_signal(&w->more);
  pthread_mutex_unlock(&w->mu);
}

void chunkw_drain(chunkw *w) {
  if (!w->threaded) return;
  pthread_mutex_lock(&w->mu);
  while (w->n || w->busy) pthread_cond_wait(&w->less, &w->mu);
  pthread_mutex_unlock(&w->mu);
}

bool chunkw_free(chunkw *w) {
  if (w->threaded) {
    pthread_mutex_lock(&w->mu);
    w->stop = true;
    pthread_cond_signal(&w->more);
    pthread_mutex_unlock(&w->mu);
    pthread_join(w->thread, NULL);
  }
  bool ok = !w->failed;
  pthread_mutex_destroy(&w->mu);
  pthread_cond_destroy(&w->more);
  pthread_cond_destroy(&w->less);
  free(w);
  return ok;
}
