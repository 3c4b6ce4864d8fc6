/* Decimal digits of unsigned numbers, fast: the trace writer prints
 * several numbers per record, millions of records a second.  Shared by the
 * record writer (record.c) and the tracer's own small formatters (fmt.c). */
#ifndef RTG_DECIMAL_H
#define RTG_DECIMAL_H

#include <stdint.h>

/* How many decimal digits v has: from its bit length (log10(2) is about
 * 1233/4096), then one comparison with the power of ten it may fall short
 * of. */
static inline unsigned rtg_dec_len(uint64_t v) {
  static const uint64_t pow10[20] = {1ull,
                                     10ull,
                                     100ull,
                                     1000ull,
                                     10000ull,
                                     100000ull,
                                     1000000ull,
                                     10000000ull,
                                     100000000ull,
                                     1000000000ull,
                                     10000000000ull,
                                     100000000000ull,
                                     1000000000000ull,
                                     10000000000000ull,
                                     100000000000000ull,
                                     1000000000000000ull,
                                     10000000000000000ull,
                                     100000000000000000ull,
                                     1000000000000000000ull,
                                     10000000000000000000ull};
  unsigned t = ((64u - (unsigned)__builtin_clzll(v | 1)) * 1233u) >> 12;
  return t + 1 - (v < pow10[t] && v); /* 0 has one digit */
}

/* Write v's rtg_dec_len(v) digits ending just before end: two at a time
 * from a table, in 32-bit steps (eight digits split off at a time). */
static inline void rtg_dec_write(char *end, uint64_t v) {
  static const char pairs[201] = "00010203040506070809101112131415161718192021222324"
                                 "25262728293031323334353637383940414243444546474849"
                                 "50515253545556575859606162636465666768697071727374"
                                 "75767778798081828384858687888990919293949596979899";
  char *q = end;
  while (v >= 100000000) {
    uint32_t lo = (uint32_t)(v % 100000000);
    v /= 100000000;
    for (int i = 0; i < 4; i++) {
      const char *d = pairs + 2 * (lo % 100);
      lo /= 100;
      *--q = d[1];
      *--q = d[0];
    }
  }
  uint32_t w = (uint32_t)v;
  while (w >= 100) {
    const char *d = pairs + 2 * (w % 100);
    w /= 100;
    *--q = d[1];
    *--q = d[0];
  }
  if (w >= 10) {
    *--q = pairs[2 * w + 1];
    *--q = pairs[2 * w];
  } else {
    *--q = (char)('0' + w);
  }
}

#endif
