/* A fast hash of a byte string, for caches that look up every event's
 * strings (API arguments of tens to hundreds of bytes) and compare the
 * bytes on a hit: its quality only decides how often two strings share a
 * slot.  Sixteen bytes a step in two independent lanes, each step a
 * 32x32-bit multiply of the bytes with a key plus the bytes themselves, so
 * no step waits on a long multiply chain. */
#ifndef RTG_STRHASH_H
#define RTG_STRHASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#if defined(__SSE2__)
static inline __m128i rtg_strhash_step(__m128i acc, __m128i d, __m128i k) {
  __m128i t = _mm_xor_si128(d, k);
  __m128i p = _mm_mul_epu32(t, _mm_srli_epi64(t, 32));
  return _mm_add_epi64(acc, _mm_add_epi64(p, _mm_shuffle_epi32(d, 0x4e)));
}

/* The bytes of a string shorter than 16 in two words, from loads inside
 * it (overlapping) rather than a copy: a copy of a few bytes read back as
 * 16 stalls. */
static inline __m128i rtg_strhash_short(const char *s, size_t len) {
  uint64_t lo = 0, hi = 0;
  if (len >= 8) {
    memcpy(&lo, s, 8);
    memcpy(&hi, s + len - 8, 8);
  } else if (len >= 4) {
    uint32_t a, b;
    memcpy(&a, s, 4);
    memcpy(&b, s + len - 4, 4);
    lo = (uint64_t)a << 32 | b;
  } else if (len) {
    lo = (uint64_t)(unsigned char)s[0] << 16 | (uint64_t)(unsigned char)s[len / 2] << 8 |
         (unsigned char)s[len - 1];
  }
  return _mm_set_epi64x((long long)hi, (long long)lo);
}
#endif

/* A hash of several strings in a row (each with its length): init, add
 * each, end. */
typedef struct rtg_strhash {
#if defined(__SSE2__)
  __m128i a0, a1;
#else
  uint64_t lo, hi;
#endif
} rtg_strhash;

static inline void rtg_strhash_init(rtg_strhash *st) {
#if defined(__SSE2__)
  st->a0 = st->a1 = _mm_setzero_si128();
#else
  st->lo = 0x9e3779b97f4a7c15ull, st->hi = ~st->lo;
#endif
}

static inline __attribute__((always_inline)) void rtg_strhash_add(rtg_strhash *st, const char *s,
                                                                  size_t len) {
#if defined(__SSE2__)
  const __m128i k0 = _mm_set_epi64x(0x1b873593cc9e2d51ll, (long long)0x85ebca6bc2b2ae35ull);
  const __m128i k1 = _mm_set_epi64x(0x27d4eb2f165667b1ll, (long long)0x9e3779b97f4a7c15ull);
  __m128i a0 = _mm_add_epi64(st->a0, _mm_set_epi64x((long long)len, 0)), a1 = st->a1;
  const char *e = s + len;
  if (len >= 16) {
    for (; e - s > 32; s += 32) {
      a0 = rtg_strhash_step(a0, _mm_loadu_si128((const __m128i *)s), k0);
      a1 = rtg_strhash_step(a1, _mm_loadu_si128((const __m128i *)(s + 16)), k1);
    }
    if (e - s > 16) a0 = rtg_strhash_step(a0, _mm_loadu_si128((const __m128i *)s), k0);
    /* the last 16 bytes, overlapping what came before */
    a1 = rtg_strhash_step(a1, _mm_loadu_si128((const __m128i *)(e - 16)), k1);
  } else {
    a0 = rtg_strhash_step(a0, rtg_strhash_short(s, len), k0);
  }
  st->a0 = a0, st->a1 = a1;
#else
  /* two independent lanes of 8 bytes */
  uint64_t v, w, lo = st->lo ^ len * 0x9e3779b97f4a7c15ull, hi = st->hi;
  for (; len >= 16; s += 16, len -= 16) {
    memcpy(&v, s, 8);
    memcpy(&w, s + 8, 8);
    lo = (lo ^ v) * 0xff51afd7ed558ccdull;
    hi = (hi ^ w) * 0xc4ceb9fe1a85ec53ull;
    lo ^= lo >> 29, hi ^= hi >> 31;
  }
  v = w = 0;
  memcpy(&v, s, len < 8 ? len : 8);
  if (len > 8) memcpy(&w, s + 8, len - 8);
  st->lo = (lo ^ v) * 0xff51afd7ed558ccdull, st->hi = (hi ^ w) * 0xc4ceb9fe1a85ec53ull;
#endif
}

/* Never 0 (callers may use 0 for an empty slot). */
static inline uint64_t rtg_strhash_end(const rtg_strhash *st) {
  uint64_t lo, hi;
#if defined(__SSE2__)
  __m128i x = _mm_xor_si128(st->a0, _mm_shuffle_epi32(st->a1, 0x4e));
  lo = (uint64_t)_mm_cvtsi128_si64(x);
  hi = (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(x, x));
#else
  lo = st->lo, hi = st->hi;
#endif
  uint64_t h = lo ^ hi * 0x9e3779b97f4a7c15ull;
  h ^= h >> 32;
  h *= 0xd6e8feb86659fd93ull;
  h ^= h >> 32;
  return h | 1;
}

static inline __attribute__((always_inline)) uint64_t rtg_str_hash(const char *s, size_t len) {
  rtg_strhash st;
  rtg_strhash_init(&st);
  rtg_strhash_add(&st, s, len);
  return rtg_strhash_end(&st);
}

#endif
