/* The writer's small formatters (core/fmt.c) against snprintf: hex and
 * decimal numbers of every length and their boundaries, and the cut at
 * the end of the buffer. */
#include "check.h"
#include "core/fmt.h"

#include <inttypes.h>
#include <stdio.h>

static int same_hex(uint64_t v) {
  char got[32], want[32];
  char *e = rtg_fmt_hex(got, got + sizeof got - 1, v);
  *e = 0;
  snprintf(want, sizeof want, "0x%" PRIx64, v);
  if (strcmp(got, want)) fprintf(stderr, "hex %" PRIx64 ": got %s\n", v, got);
  return !strcmp(got, want);
}

static int same_dec(uint64_t v) {
  char got[32], want[32];
  char *e = rtg_fmt_u64(got, got + sizeof got - 1, v);
  *e = 0;
  snprintf(want, sizeof want, "%" PRIu64, v);
  return !strcmp(got, want);
}

int main(void) {
  int bad = 0;
  uint64_t x = 0x9e3779b97f4a7c15ull;
  for (int bits = 0; bits <= 64; bits++) {
    uint64_t top = bits == 64 ? UINT64_MAX : (1ull << bits) - 1;
    uint64_t edges[] = {top, top + 1, top >> 1, (top >> 1) + 1, x & top};
    for (size_t i = 0; i < sizeof edges / sizeof *edges; i++)
      bad += !same_hex(edges[i]) + !same_dec(edges[i]);
    x = x * 6364136223846793005ull + 1442695040888963407ull;
  }
  CHECK(bad == 0);
  /* cut at the end: what fits, never more */
  char buf[8];
  char *e = rtg_fmt_hex(buf, buf + 5, 0x7f316ce80380ull);
  CHECK(e == buf + 5 && !memcmp(buf, "0x7f3", 5));
  return check_done("test_fmt");
}
