/* The bytes of a JSON writer on their way to the background writer
 * (rtg_jsonw_start_async; jsonw.h, bgwrite.h).
 *
 * The formatting thread fills a small buffer that stays in its own cache,
 * and copies each full one into 1 MB buffers with streaming stores, which
 * go to memory without bringing the lines into its cache; the background
 * writer writes those to the file and hands them back.  The formatting
 * buffer itself is never handed over: its lines would go to the writer's
 * core for the kernel's copy and come back to be written over, costing the
 * formatting thread more than the writes take.  Without SSE2 the writes
 * stay on the formatting thread (scripts/BENCHMARKS.md has the
 * measurements). */
#include "jsonw.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "bgwrite.h"

#define BIG (1u << 20) /* what the writer thread writes at a time */
#define NBIG 4         /* in flight, and being filled */

/* big: the buffer being filled, up to big_len; spare: buffers never
 * handed over yet; the others are with the background writer. */
struct rtg_jsonw_async {
  rtg_bgw *bg;
  char *big, *spare[NBIG];
  unsigned nspare;
  size_t big_len;
};

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

/* The filled buffer to the writer, and the next one to fill: a spare one,
 * else one the writer has written. */
static void hand_over(rtg_jsonw *w) {
  struct rtg_jsonw_async *a = w->async;
  _mm_sfence(); /* the streaming stores, seen before the buffer is */
  rtg_bgw_put(a->bg, w->f, a->big, a->big_len);
  a->big = a->nspare ? a->spare[--a->nspare] : rtg_bgw_take(a->bg);
  a->big_len = 0;
}

bool rtg_jsonw_start_async(rtg_jsonw *w) {
  if (w->len) return false; /* (only before the first bytes) */
  struct rtg_jsonw_async *a = calloc(1, sizeof *a);
  if (!a) return false;
  a->bg = rtg_bgw_new(NBIG, true);
  if (!a->bg || !rtg_bgw_threaded(a->bg)) {
    if (a->bg) rtg_bgw_free(a->bg);
    free(a);
    return false;
  }
  for (unsigned i = 0; i < NBIG; i++)
    if (!(a->spare[i] = aligned_alloc(64, BIG))) {
      while (i--) free(a->spare[i]);
      rtg_bgw_free(a->bg);
      free(a);
      return false;
    }
  a->nspare = NBIG - 1;
  a->big = a->spare[NBIG - 1];
  w->async = a;
  w->cap = RTG_JSONW_STAGE; /* (the buffer holds more: it was made for the writes) */
  return true;
}

void rtg_jsonw_async_put(rtg_jsonw *w) {
  struct rtg_jsonw_async *a = w->async;
  if (a->big_len + w->len > BIG) hand_over(w);
  stream_copy(a->big + a->big_len, w->buf, w->len);
  a->big_len += w->len;
}

bool rtg_jsonw_async_stop(rtg_jsonw *w) {
  struct rtg_jsonw_async *a = w->async;
  if (a->big_len) hand_over(w);
  bool ok = rtg_bgw_free(a->bg); /* (written, and the buffers it kept freed) */
  for (unsigned i = 0; i < a->nspare; i++) free(a->spare[i]);
  free(a->big);
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
