/* Tiny number and string formatters for the writer (fmt.h): no
 * stdio, no locale, usable in a signal handler.  Each writes at p, never
 * past end, and returns the new end of text. */
#include "decimal.h"
#include "fmt.h"

#include <string.h>

char *rtg_fmt_u64(char *p, char *end, uint64_t v) {
  if ((size_t)(end - p) >= RTG_DEC_ROOM) return p + rtg_dec_put(p, v);
  unsigned n = rtg_dec_len(v);
  if ((size_t)(end - p) >= n) {
    rtg_dec_write(p + n, v);
    return p + n;
  }
  char tmp[20]; /* what fits of it */
  rtg_dec_write(tmp + n, v);
  for (unsigned i = 0; i < n && p < end; i++) *p++ = tmp[i];
  return p;
}

char *rtg_fmt_i64(char *p, char *end, int64_t v) {
  if (v < 0) {
    if (p < end) *p++ = '-';
    return rtg_fmt_u64(p, end, (uint64_t)0 - (uint64_t)v);
  }
  return rtg_fmt_u64(p, end, (uint64_t)v);
}

/* Two digits a step, from the byte's pair in a table (an HSA record's
 * handles and pointers are 12 digits). */
char *rtg_fmt_hex(char *p, char *end, uint64_t v) {
  static const char pairs[513] = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
                                 "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
                                 "404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f"
                                 "606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f"
                                 "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
                                 "a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
                                 "c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf"
                                 "e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";
  char tmp[18], *e = tmp + sizeof tmp, *q = e;
  do {
    q -= 2;
    memcpy(q, pairs + 2 * (v & 0xff), 2);
  } while ((v >>= 8));
  if (*q == '0') q++; /* an odd number of digits (0 keeps one) */
  *--q = 'x';
  *--q = '0';
  size_t n = (size_t)(e - q);
  if (n > (size_t)(end - p)) n = (size_t)(end - p);
  memcpy(p, q, n);
  return p + n;
}

char *rtg_fmt_str(char *p, char *end, const char *s) {
  while (*s && p < end) *p++ = *s++;
  return p;
}
