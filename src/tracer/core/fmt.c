/* Tiny number and string formatters for the writer (fmt.h): no
 * stdio, no locale, usable in a signal handler.  Each writes at p, never
 * past end, and returns the new end of text. */
#include "decimal.h"
#include "fmt.h"

#include <string.h>

char *rtg_fmt_u64(char *p, char *end, uint64_t v) {
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

char *rtg_fmt_hex(char *p, char *end, uint64_t v) {
  static const char digits[] = "0123456789abcdef";
  char tmp[18], *e = tmp + sizeof tmp, *q = e;
  do *--q = digits[v & 15];
  while ((v >>= 4));
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
