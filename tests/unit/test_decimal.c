/* Decimal digits (src/common/decimal.h): the digit count and the digits at
 * each power of ten, and a million 64-bit values of every length, against
 * printf; nothing is written past the digits (rtg_dec_write) or past
 * RTG_DEC_ROOM (rtg_dec_put). */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "decimal.h"

static void check_value(uint64_t v) {
  char buf[24], ref[24];
  unsigned n = rtg_dec_len(v);
  memset(buf, 'x', sizeof buf);
  rtg_dec_write(buf + n, v);
  buf[n] = 0;
  snprintf(ref, sizeof ref, "%llu", (unsigned long long)v);
  CHECK_STR(buf, ref);
  CHECK(buf[n + 1] == 'x'); /* nothing written past the digits */
  /* 8 digits a step: the same digits, and no store past its room */
  char wide[RTG_DEC_ROOM + 8];
  memset(wide, 'x', sizeof wide);
  unsigned m = rtg_dec_put(wide, v);
  CHECK(m == n);
  wide[m] = 0;
  CHECK_STR(wide, ref);
  for (size_t i = RTG_DEC_ROOM; i < sizeof wide; i++) CHECK(wide[i] == 'x');
}

int main(void) {
  uint64_t p = 1;
  for (int i = 0; i < 20; i++, p *= 10) {
    check_value(p - 1);
    check_value(p);
    check_value(p + 1);
  }
  check_value(0);
  check_value(UINT64_MAX);

  uint64_t x = 88172645463325252ull; /* xorshift: values of every length */
  for (int i = 0; i < 1000000; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    check_value(x >> (x & 63));
  }
  return check_done("test_decimal");
}
