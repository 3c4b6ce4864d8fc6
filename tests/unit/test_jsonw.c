/* The JSON writer: escaping of quotes, backslashes and control bytes,
 * invalid UTF-8 replaced, valid UTF-8 kept, exact ns -> us numbers. */
#include <stdlib.h>

#include "check.h"
#include "jsonw.h"

static char out[4096];

static const char *json_of(const char *s, size_t n) {
  FILE *f = fmemopen(out, sizeof out, "w");
  rtg_jsonw w;
  rtg_jsonw_init(&w, f);
  rtg_jsonw_strn(&w, s, n);
  rtg_jsonw_finish(&w);
  fclose(f);
  return out;
}

static const char *us_of(uint64_t ns) {
  rtg_fmt_ns_as_us(out, ns);
  return out;
}

int main(void) {
  CHECK_STR(json_of("plain", 5), "\"plain\"");
  CHECK_STR(json_of("a\"b\\c", 5), "\"a\\\"b\\\\c\"");
  CHECK_STR(json_of("\n\t\x01", 3), "\"\\n\\t\\u0001\"");
  CHECK_STR(json_of("\xff\xfe", 2), "\"\\ufffd\\ufffd\"");
  CHECK_STR(json_of("\xc3\xa9t\xc3\xa9", 5), "\"\xc3\xa9t\xc3\xa9\"");
  CHECK_STR(json_of("\xe2\x82", 2), "\"\\ufffd\\ufffd\"");            /* truncated */
  CHECK_STR(json_of("\xed\xa0\x80", 3), "\"\\ufffd\\ufffd\\ufffd\""); /* surrogate */
  CHECK_STR(json_of("\xc0\xaf", 2), "\"\\ufffd\\ufffd\"");            /* overlong */
  CHECK_STR(json_of("\xf0\x9f\x98\x80", 4), "\"\xf0\x9f\x98\x80\"");
  /* the fast path reads eight bytes at a time: every byte value at every
   * position of a plain string must come out as the escaper writes it */
  int bad_pos = 0;
  for (int pos = 0; pos < 40; pos++)
    for (int b = 1; b < 256; b++) {
      char s[40], want[300];
      memset(s, 'a', sizeof s);
      s[pos] = (char)b;
      want[0] = '"';
      size_t k = rtg_json_escape(want + 1, s, sizeof s);
      memcpy(want + 1 + k, "\"", 2);
      bad_pos += strcmp(json_of(s, sizeof s), want) != 0;
    }
  CHECK(bad_pos == 0);
  /* rtg_json_quote_into writes what the writer writes (16 bytes at a time
   * where it scans, the last 16 overlapping: every byte value at every
   * position of strings around those sizes), or says it may not fit */
  int bad_into = 0;
  static const int lens[] = {1, 7, 8, 9, 15, 16, 17, 24, 31, 32, 33, 40};
  for (size_t li = 0; li < sizeof lens / sizeof *lens; li++)
    for (int pos = 0; pos < lens[li]; pos++)
      for (int b = 1; b < 256; b++) {
        size_t n = (size_t)lens[li];
        char s[40], got[300];
        memset(s, 'a', sizeof s);
        s[pos] = (char)b;
        const char *want = json_of(s, n);
        size_t k = rtg_json_quote_into(got, sizeof got, s, n);
        bad_into += k == SIZE_MAX || k != strlen(want) || memcmp(got, want, k) != 0;
      }
  CHECK(bad_into == 0);
  char small[16];
  CHECK(rtg_json_quote_into(small, 7, "plain", 5) == 7 && !memcmp(small, "\"plain\"", 7));
  CHECK(rtg_json_quote_into(small, 6, "plain", 5) == SIZE_MAX);
  CHECK(rtg_json_quote_into(small, sizeof small, "a\nb", 3) == SIZE_MAX); /* (6 per byte) */
  CHECK(rtg_json_quote_into(small, 2, "", 0) == 2 && !memcmp(small, "\"\"", 2));
  CHECK(rtg_json_quote_into(small, 1, "", 0) == SIZE_MAX);
  CHECK_STR(us_of(0), "0");
  CHECK_STR(us_of(1500), "1.5");
  CHECK_STR(us_of(1234567), "1234.567");
  CHECK_STR(us_of(1000010), "1000.01");
  CHECK_STR(us_of(1000001), "1000.001");
  CHECK_STR(us_of(UINT64_MAX), "18446744073709551.615");
  /* a long string crosses the writer's slices without splitting UTF-8 */
  static char big[10000];
  for (int i = 0; i < 9999; i += 3) memcpy(big + i, "\xe2\x82\xac", 3);
  FILE *f = fopen("big.json", "w");
  rtg_jsonw w;
  rtg_jsonw_init(&w, f);
  rtg_jsonw_strn(&w, big, 9999);
  CHECK(rtg_jsonw_finish(&w));
  fclose(f);
  f = fopen("big.json", "r");
  size_t n = fread(out, 1, sizeof out, f);
  fclose(f);
  CHECK(n == sizeof out && !memchr(out, '\\', n));

  /* numbers (two digits at a time) against printf, every length and the
   * edges of each; fractions of microseconds with 1-3 decimals */
  int bad_u64 = 0, bad_us = 0;
  for (uint64_t p = 1; p; p = p * 10 > p && p <= UINT64_MAX / 10 ? p * 10 : 0) {
    uint64_t vals[] = {p - 1, p, p + 1, p * 5 + 3, p * 9 + (p - 1)};
    for (int i = 0; i < 5; i++) {
      char want[64], got[64];
      snprintf(want, sizeof want, "%llu", (unsigned long long)vals[i]);
      f = fopen("num.json", "w");
      rtg_jsonw_init(&w, f);
      rtg_jsonw_u64(&w, vals[i]);
      rtg_jsonw_finish(&w);
      fclose(f);
      f = fopen("num.json", "r");
      got[fread(got, 1, sizeof got - 1, f)] = 0;
      fclose(f);
      bad_u64 += strcmp(got, want) != 0;
      uint64_t ns = vals[i];
      int fr = (int)(ns % 1000);
      if (fr == 0)
        snprintf(want, sizeof want, "%llu", (unsigned long long)(ns / 1000));
      else {
        snprintf(want, sizeof want, "%llu.%03d", (unsigned long long)(ns / 1000), fr);
        while (want[strlen(want) - 1] == '0') want[strlen(want) - 1] = 0;
      }
      bad_us += strcmp(us_of(ns), want) != 0;
    }
  }
  CHECK(bad_u64 == 0);
  CHECK(bad_us == 0);
  /* numbers 8 digits at a time: random ones of every magnitude against
   * printf, and every value up to 100000 */
  int bad_rand = 0;
  uint64_t xs = 88172645463325252ull;
  for (int i = 0; i < 1000000; i++) {
    xs ^= xs << 13, xs ^= xs >> 7, xs ^= xs << 17;
    uint64_t v = i < 100000 ? (uint64_t)i : xs >> (xs & 63);
    char want[32], got[32];
    snprintf(want, sizeof want, "%llu", (unsigned long long)v);
    got[rtg_json_fmt_u64(got, v)] = 0;
    bad_rand += strcmp(got, want) != 0;
  }
  CHECK(bad_rand == 0);
  CHECK_STR(us_of(UINT64_MAX), "18446744073709551.615");
  CHECK_STR(us_of(1010), "1.01");
  CHECK_STR(us_of(1100), "1.1");

  /* 20 MB through the 1 MB buffer, in order; then through the writer
   * thread (its buffers filled with streaming stores, odd lengths and
   * alignments), with strings longer than its formatting buffer */
  f = fopen("many.json", "w");
  rtg_jsonw_init(&w, f);
  for (uint64_t i = 0; i < 2000000; i++) {
    rtg_jsonw_u64(&w, i);
    rtg_jsonw_ch(&w, '\n');
  }
  CHECK(rtg_jsonw_finish(&w));
  fclose(f);
  f = fopen("many.json", "r");
  char line[32];
  uint64_t expect = 0, wrong = 0;
  while (fgets(line, sizeof line, f)) wrong += strtoull(line, NULL, 10) != expect++;
  fclose(f);
  CHECK(expect == 2000000 && wrong == 0);

  f = fopen("async.json", "w");
  rtg_jsonw_init(&w, f);
#if defined(__SSE2__)
  CHECK(rtg_jsonw_start_async(&w));
#endif
  static char longs_text[200000];
  for (size_t i = 0; i < sizeof longs_text - 1; i++) longs_text[i] = (char)('a' + i % 26);
  for (uint64_t i = 0; i < 2000000; i++) {
    rtg_jsonw_u64(&w, i);
    rtg_jsonw_ch(&w, '\n');
    if (i % 250000 == 7) { /* a long line: raw bytes and an escaped string */
      rtg_jsonw_raw(&w, longs_text, sizeof longs_text - 1 - i % 13);
      rtg_jsonw_str(&w, longs_text + i % 11);
      rtg_jsonw_ch(&w, '\n');
    }
  }
  CHECK(rtg_jsonw_finish(&w));
  fclose(f);
  f = fopen("async.json", "r");
  static char text[2 * sizeof longs_text + 64];
  expect = wrong = 0;
  uint64_t longs = 0;
  while (fgets(text, sizeof text, f)) {
    if (text[0] >= '0' && text[0] <= '9') {
      wrong += strtoull(text, NULL, 10) != expect++;
    } else { /* the long line that followed number expect - 1 */
      uint64_t i = expect - 1;
      size_t raw = sizeof longs_text - 1 - i % 13;
      wrong += memcmp(text, longs_text, raw) != 0 || text[raw] != '"' ||
               memcmp(text + raw + 1, longs_text + i % 11, strlen(longs_text + i % 11)) != 0;
      longs++;
    }
  }
  fclose(f);
  CHECK(expect == 2000000 && wrong == 0 && longs == 8);
  return check_done("test_jsonw");
}
