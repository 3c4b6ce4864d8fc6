/* libFuzzer target: the HCC_PROFILE=2 "profile:" line parser (shared by rpt
 * and rtg-convert).  Each input line is copied into a buffer of exactly its
 * length (no NUL after it: the parser must stay inside [line, line+len)).
 * Oracles:
 *   - the result is -1, 0 or 1; 0 only when the line does not start with
 *     "profile:"; -1 always comes with a reason;
 *   - every string of the result lies inside the line, the type is a word;
 *   - round trip: a line with start and stop, written again with
 *     rtg_hcc_profile_format, parses to the same type, name, times, #op,
 *     extra text and byte count. */
#include "hcc_profile.h"

#include <stdlib.h>
#include <string.h>

static int inside(const char *line, size_t len, const char *s, size_t n) {
  return s >= line && s + n <= line + len;
}

static int same(const char *a, size_t an, const char *b, size_t bn) {
  return an == bn && memcmp(a, b, an) == 0;
}

static void check_line(const char *line, size_t len) {
  rtg_hcc_profile p;
  const char *why = NULL;
  int st = rtg_hcc_profile_parse(line, len, &p, &why);
  int prefixed = len >= 8 && memcmp(line, "profile:", 8) == 0;
  if (st < -1 || st > 1) abort();
  if (st == 0 && (prefixed || why)) abort();
  if (st != 0 && !prefixed) abort();
  if (st < 0 && !why) abort();
  if (st <= 0) return;
  if (!inside(line, len, p.type, p.type_len) || !inside(line, len, p.name, p.name_len) ||
      !inside(line, len, p.extra, p.extra_len))
    abort();
  if (p.type_len == 0) abort();
  for (size_t i = 0; i < p.type_len; i++) {
    char c = p.type[i];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
      abort();
  }
  if (!(p.flags & RTG_HCC_HAS_ENQ) && p.enq != p.start) abort();
  if (!(p.flags & RTG_HCC_HAS_OP) && (p.device || p.queue || p.seq)) abort();

  /* Round trip of lines the writer can represent. */
  if (!(p.flags & RTG_HCC_HAS_TIMES)) return;
  if (memchr(p.name, ';', p.name_len) || memchr(p.name, 0, p.name_len) ||
      memchr(p.extra, 0, p.extra_len))
    return;
  char type[64], *name = malloc(p.name_len + 1), *extra = malloc(p.extra_len + 1);
  if (!name || !extra || p.type_len >= sizeof type) goto out;
  memcpy(type, p.type, p.type_len), type[p.type_len] = 0;
  memcpy(name, p.name, p.name_len), name[p.name_len] = 0;
  memcpy(extra, p.extra, p.extra_len), extra[p.extra_len] = 0;
  size_t cap = p.name_len + p.extra_len + 256;
  char *again = malloc(cap);
  if (!again) goto out;
  size_t n = rtg_hcc_profile_format(again, cap, type, name, p.start, p.stop, p.device, p.queue,
                                    p.seq, extra);
  if (!n) abort();
  rtg_hcc_profile q;
  if (rtg_hcc_profile_parse(again, n, &q, &why) != 1) abort();
  if (!same(q.type, q.type_len, p.type, p.type_len) ||
      !same(q.name, q.name_len, p.name, p.name_len) ||
      !same(q.extra, q.extra_len, p.extra, p.extra_len))
    abort();
  if (q.start != p.start || q.stop != p.stop || q.device != p.device || q.queue != p.queue ||
      q.seq != p.seq || q.bytes != p.bytes)
    abort();
  if (!(q.flags & RTG_HCC_HAS_TIMES) || !(q.flags & RTG_HCC_HAS_OP) ||
      (q.flags & RTG_HCC_HAS_ENQ) || (q.flags & RTG_HCC_BAD_OP) ||
      (q.flags & RTG_HCC_HAS_BYTES) != (p.flags & RTG_HCC_HAS_BYTES))
    abort();
  free(again);
out:
  free(name);
  free(extra);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  size_t pos = 0;
  while (pos < size) {
    const unsigned char *nl = memchr(data + pos, '\n', size - pos);
    size_t n = nl ? (size_t)(nl - (data + pos)) : size - pos;
    char *line = malloc(n ? n : 1); /* exactly n bytes: ASan sees any overread */
    if (!line) return 0;
    memcpy(line, data + pos, n);
    check_line(line, n);
    free(line);
    pos += n + 1;
  }
  return 0;
}
