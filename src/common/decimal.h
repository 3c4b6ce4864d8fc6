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

/* The 8 decimal digits of v < 1e8, leading zeros included, one a byte
 * (0 to 9), the most significant first in memory (little-endian): no loop
 * and no chain of divisions.  The two halves of 4 digits split at once,
 * then each lane is divided by 100 and by 10 with a multiply and a shift
 * (exact for lanes below 10000 and 100). */
static inline uint64_t rtg_dec_digits8(uint32_t v) {
  uint64_t x = (v / 10000) | ((uint64_t)(v % 10000) << 32);
  uint64_t y = ((x * 10486) >> 20) & 0x0000007f0000007full; /* x / 100, per 32-bit lane */
  uint64_t z = y | ((x - y * 100) << 16);                   /* 4 lanes of 2 digits */
  uint64_t w = ((z * 103) >> 10) & 0x000f000f000f000full;   /* z / 10, per 16-bit lane */
  return w | ((z - w * 10) << 8);
}

#define RTG_DEC_ZEROS 0x3030303030303030ull

/* v (1 <= v < 1e8) without its leading zeros; stores 8 bytes. */
static inline unsigned rtg_dec_put8(char *out, uint32_t v) {
  uint64_t d = rtg_dec_digits8(v);
  unsigned lead = (unsigned)__builtin_ctzll(d) >> 3; /* (d has a digit that is not 0) */
  uint64_t a = (d + RTG_DEC_ZEROS) >> (8 * lead);
  __builtin_memcpy(out, &a, 8);
  return 8 - lead;
}

/* v in decimal at out, 8 digits a step; returns how many.  out must have
 * RTG_DEC_ROOM bytes: the stores are of 8 bytes and run past the digits.
 * (The trace writer and the JSON writer print several numbers a record.) */
#define RTG_DEC_ROOM 24
static inline unsigned rtg_dec_put(char *out, uint64_t v) {
  if (v < 10) {
    out[0] = (char)('0' + v);
    return 1;
  }
  if (v < 100000000) return rtg_dec_put8(out, (uint32_t)v);
  unsigned n;
  if (v < 10000000000000000ull) {
    n = rtg_dec_put8(out, (uint32_t)(v / 100000000));
  } else { /* 17 to 20 digits */
    n = rtg_dec_put8(out, (uint32_t)(v / 10000000000000000ull));
    v %= 10000000000000000ull;
    uint64_t a = rtg_dec_digits8((uint32_t)(v / 100000000)) + RTG_DEC_ZEROS;
    __builtin_memcpy(out + n, &a, 8);
    n += 8;
  }
  uint64_t a = rtg_dec_digits8((uint32_t)(v % 100000000)) + RTG_DEC_ZEROS;
  __builtin_memcpy(out + n, &a, 8);
  return n + 8;
}

#endif
