/* The writer thread of a JSON writer (rtg_jsonw_start_async; jsonw.h).
 *
 * The formatting thread fills a small buffer that stays in its own cache,
 * and copies each full one into 1 MB buffers with streaming stores, which
 * go to memory without bringing the lines into its cache; a thread of its
 * own writes those to the file.  The formatting buffer itself is never
 * handed over: its lines would go to the writer's core for the kernel's
 * copy and come back to be written over, costing the formatting thread
 * more than the writes take.  Without SSE2 the writes stay on the
 * formatting thread (scripts/BENCHMARKS.md has the measurements). */
#include "jsonw.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define BIG (1u << 20) /* what the writer thread writes at a time */
#define NBIG 4         /* in flight, and being filled */

/* full: a queue of filled buffers for the writer; free_: a stack of
 * written ones for the formatting thread, which fills big up to big_len */
struct rtg_jsonw_async {
  pthread_t thread;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  char *full[NBIG], *free_[NBIG];
  size_t full_len[NBIG];
  unsigned nfull, full_head, nfree;
  bool stop, error;
  char *big;
  size_t big_len;
};

static void *writer_main(void *arg) {
  rtg_jsonw *w = arg;
  struct rtg_jsonw_async *a = w->async;
  pthread_mutex_lock(&a->mu);
  for (;;) {
    while (!a->nfull && !a->stop) pthread_cond_wait(&a->cv, &a->mu);
    if (!a->nfull) break; /* stopped and drained */
    char *b = a->full[a->full_head];
    size_t n = a->full_len[a->full_head];
    a->full_head = (a->full_head + 1) % NBIG;
    a->nfull--;
    bool error = a->error;
    pthread_mutex_unlock(&a->mu);
    if (!error && fwrite(b, 1, n, w->f) != n) error = true;
    pthread_mutex_lock(&a->mu);
    a->error |= error;
    a->free_[a->nfree++] = b;
    pthread_cond_broadcast(&a->cv);
  }
  pthread_mutex_unlock(&a->mu);
  return NULL;
}

#if defined(__SSE2__)
/* memcpy with streaming stores where dst is 16-byte aligned */
static void stream_copy(char *dst, const char *src, size_t n) {
  while (n && ((uintptr_t)dst & 15)) *dst++ = *src++, n--;
  for (; n >= 64; n -= 64, dst += 64, src += 64) {
    __m128i x0 = _mm_loadu_si128((const __m128i *)src);
    __m128i x1 = _mm_loadu_si128((const __m128i *)(src + 16));
    __m128i x2 = _mm_loadu_si128((const __m128i *)(src + 32));
    __m128i x3 = _mm_loadu_si128((const __m128i *)(src + 48));
    _mm_stream_si128((__m128i *)dst, x0);
    _mm_stream_si128((__m128i *)(dst + 16), x1);
    _mm_stream_si128((__m128i *)(dst + 32), x2);
    _mm_stream_si128((__m128i *)(dst + 48), x3);
  }
  memcpy(dst, src, n);
}

/* The filled buffer to the writer thread, and the next one to fill. */
static void hand_over(struct rtg_jsonw_async *a) {
  _mm_sfence(); /* the streaming stores, seen before the buffer is */
  pthread_mutex_lock(&a->mu);
  a->full[(a->full_head + a->nfull) % NBIG] = a->big;
  a->full_len[(a->full_head + a->nfull) % NBIG] = a->big_len;
  a->nfull++;
  pthread_cond_broadcast(&a->cv);
  while (!a->nfree) pthread_cond_wait(&a->cv, &a->mu);
  a->big = a->free_[--a->nfree];
  pthread_mutex_unlock(&a->mu);
  a->big_len = 0;
}

bool rtg_jsonw_start_async(rtg_jsonw *w) {
  if (w->len) return false; /* (only before the first bytes) */
  struct rtg_jsonw_async *a = calloc(1, sizeof *a);
  if (!a) return false;
  for (unsigned i = 0; i < NBIG; i++)
    if (!(a->free_[i] = aligned_alloc(64, BIG))) {
      while (i--) free(a->free_[i]);
      free(a);
      return false;
    }
  a->nfree = NBIG - 1;
  a->big = a->free_[NBIG - 1];
  pthread_mutex_init(&a->mu, NULL);
  pthread_cond_init(&a->cv, NULL);
  w->async = a;
  if (pthread_create(&a->thread, NULL, writer_main, w)) {
    for (unsigned i = 0; i < NBIG; i++) free(a->free_[i]);
    pthread_mutex_destroy(&a->mu);
    pthread_cond_destroy(&a->cv);
    free(a);
    w->async = NULL;
    return false;
  }
  w->cap = RTG_JSONW_STAGE; /* (the buffer holds more: it was made for the writes) */
  return true;
}

void rtg_jsonw_async_put(rtg_jsonw *w) {
  struct rtg_jsonw_async *a = w->async;
  if (a->big_len + w->len > BIG) hand_over(a);
  stream_copy(a->big + a->big_len, w->buf, w->len);
  a->big_len += w->len;
}

bool rtg_jsonw_async_stop(rtg_jsonw *w) {
  struct rtg_jsonw_async *a = w->async;
  if (a->big_len) hand_over(a);
  pthread_mutex_lock(&a->mu);
  a->stop = true;
  pthread_cond_broadcast(&a->cv);
  pthread_mutex_unlock(&a->mu);
  pthread_join(a->thread, NULL);
  bool ok = !a->error;
  for (unsigned i = 0; i < a->nfree; i++) free(a->free_[i]);
  free(a->big);
  pthread_mutex_destroy(&a->mu);
  pthread_cond_destroy(&a->cv);
  free(a);
  w->async = NULL;
  return ok;
}
#else
bool rtg_jsonw_start_async(rtg_jsonw *w) {
  (void)w;
  return false;
}
void rtg_jsonw_async_put(rtg_jsonw *w) {
  (void)w;
}
bool rtg_jsonw_async_stop(rtg_jsonw *w) {
  (void)w;
  return true;
}
#endif
