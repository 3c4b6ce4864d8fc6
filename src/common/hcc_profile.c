/* Parser and writer of the legacy HCC_PROFILE=2 "profile:" line; see
 * hcc_profile.h for the accepted layouts.  The parser walks the line once
 * with a cursor over ';'-separated fields and never allocates, because rpt
 * calls it for every line of files with tens of millions of records. */
#include "hcc_profile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PREFIX "profile:"
#define PREFIX_LEN (sizeof PREFIX - 1)

typedef struct span {
  const char *s;
  size_t n;
} span;

/* White space as Python's str.strip() (which rpt used) sees it. */
static const unsigned char ws_tab[256] = {
    [' '] = 1, ['\t'] = 1, ['\r'] = 1, ['\n'] = 1, ['\v'] = 1, ['\f'] = 1};
static inline int is_ws(char c) {
  return ws_tab[(unsigned char)c];
}

/* The name field is right-aligned in 40 columns: skip its padding eight
 * spaces at a time. */
static inline span trim(const char *s, const char *e) {
  for (;;) {
    uint64_t w;
    if (e - s >= 8 && (memcpy(&w, s, 8), w == 0x2020202020202020ull))
      s += 8;
    else if (s < e && is_ws(*s))
      s++;
    else
      break;
  }
  while (e > s && is_ws(e[-1])) e--;
  return (span){s, (size_t)(e - s)};
}

/* Next ';' in [s, e), eight bytes at a time (a zero byte of w ^ ";;;..."
 * marks a ';'), so short and long fields cost little. */
static inline const char *find_semi(const char *s, const char *e) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
  while (e - s >= 8) {
    uint64_t w;
    memcpy(&w, s, 8);
    w ^= ones * ';';
    uint64_t z = (w - ones) & ~w & highs;
    if (z) return s + (__builtin_ctzll(z) >> 3); /* little-endian: lowest byte first */
    s += 8;
  }
#endif
  for (; s < e; s++)
    if (*s == ';') return s;
  return NULL;
}

/* The field at *cur up to the next ';' (or the end), trimmed; *cur moves
 * past the ';'.  Returns 0 when no field is left. */
static inline int next_field(const char **cur, const char *end, span *f, int *had_sep) {
  if (*cur > end) return 0;
  const char *s = *cur;
  const char *semi = find_semi(s, end);
  const char *e = semi ? semi : end;
  *f = trim(s, e);
  *had_sep = semi != NULL;
  *cur = semi ? semi + 1 : end + 1; /* end + 1: nothing further */
  return 1;
}

/* Unsigned decimal spanning all of f; false on anything else or overflow. */
static int parse_u64(span f, uint64_t *v) {
  if (f.n == 0 || f.n > 20) return 0;
  uint64_t x = 0;
  for (size_t i = 0; i < f.n; i++) {
    unsigned d = (unsigned)(f.s[i] - '0');
    if (d > 9) return 0;
    if (i == 19 && x > (UINT64_MAX - d) / 10) return 0; /* only 20 digits can overflow */
    x = x * 10 + d;
  }
  *v = x;
  return 1;
}

/* "#D.Q.S" (the '#' optional, as rpt stripped it). */
static int parse_op(span f, rtg_hcc_profile *p) {
  if (f.n && f.s[0] == '#') f.s++, f.n--;
  uint64_t v[3];
  const char *s = f.s, *end = f.s + f.n;
  for (int i = 0; i < 3; i++) {
    const char *dot = i < 2 ? memchr(s, '.', (size_t)(end - s)) : end;
    if (!dot || !parse_u64((span){s, (size_t)(dot - s)}, &v[i])) return 0;
    s = dot + 1;
  }
  if (v[0] > UINT32_MAX || v[1] > UINT32_MAX) return 0;
  p->device = (uint32_t)v[0];
  p->queue = (uint32_t)v[1];
  p->seq = v[2];
  return 1;
}

/* "12.5 us" (the unit optional).  Plain decimals, the tracer's "%6.1f",
 * take a fast path: all digits as one integer divided by a power of ten is
 * one correctly rounded division, the same double strtod gives.  Anything
 * else (exponents, many digits) goes to strtod on a terminated copy. */
static int parse_dur(span f, double *us) {
  static const double pow10[] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
  const char *s = f.s, *e = f.s + f.n;
  if (e - s >= 2 && e[-2] == 'u' && e[-1] == 's') {
    e -= 2;
    while (e > s && is_ws(e[-1])) e--;
  }
  uint64_t m = 0;
  int digits = 0, frac = -1;
  const char *p = s;
  for (; p < e; p++) {
    if (*p >= '0' && *p <= '9') {
      m = m * 10 + (uint64_t)(*p - '0');
      digits++;
      if (frac >= 0) frac++;
    } else if (*p == '.' && frac < 0) {
      frac = 0;
    } else {
      break;
    }
  }
  if (p == e && digits > 0 && digits <= 15) {
    *us = (double)m / pow10[frac < 0 ? 0 : frac];
    return 1;
  }
  char tmp[64];
  if (f.n == 0 || f.n >= sizeof tmp) return 0;
  memcpy(tmp, f.s, f.n);
  tmp[f.n] = 0;
  char *end;
  *us = strtod(tmp, &end);
  if (end == tmp) return 0;
  while (is_ws(*end)) end++;
  if (end[0] == 'u' && end[1] == 's') end += 2;
  return *end == 0;
}

static int is_word(span f) {
  if (f.n == 0) return 0;
  for (size_t i = 0; i < f.n; i++) {
    char c = f.s[i];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
      return 0;
  }
  return 1;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* Eight ASCII digits in one word (first digit in the lowest byte): each
 * byte's high nibble must be 3, and adding 6 must not carry out of the low
 * nibble (which would mean a byte above '9'). */
static inline int eight_digits(uint64_t w) {
  const uint64_t hi = 0xF0F0F0F0F0F0F0F0ull;
  return ((w & hi) | (((w + 0x0606060606060606ull) & hi) >> 4)) == 0x3333333333333333ull;
}

/* Their value: combine neighbouring digits pairwise (d0*10+d1), then the
 * pairs (*100), then the quads (*10000), each step one multiply. */
static inline uint64_t eight_value(uint64_t w) {
  w &= 0x0F0F0F0F0F0F0F0Full;
  w = (w * (1 + (10ull << 8))) >> 8;
  w &= 0x00FF00FF00FF00FFull;
  w = (w * (1 + (100ull << 16))) >> 16;
  w &= 0x0000FFFF0000FFFFull;
  return (w * (1 + (10000ull << 32))) >> 32;
}
#endif

/* Digits at *s (at most 20, no overflow) into *v; advances *s.  The
 * 13-digit nanosecond timestamps take the eight-at-a-time path. */
static inline int digits(const char **s, const char *e, uint64_t *v) {
  const char *q = *s;
  uint64_t x = 0;
  int n = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  while (e - q >= 8 && n <= 11) { /* n + 8 <= 19 digits: cannot overflow */
    uint64_t w;
    memcpy(&w, q, 8);
    if (!eight_digits(w)) break;
    x = x * 100000000u + eight_value(w);
    q += 8;
    n += 8;
  }
  if (e - q >= 4 && n <= 15) { /* then four (a 13-digit time: 8 + 4 + 1) */
    uint32_t w;
    memcpy(&w, q, 4);
    if (((w & 0xF0F0F0F0u) | (((w + 0x06060606u) & 0xF0F0F0F0u) >> 4)) == 0x33333333u) {
      w &= 0x0F0F0F0Fu;
      w = (w * 10 + (w >> 8)) & 0x00FF00FFu;
      x = x * 10000 + ((w * 100 + (w >> 16)) & 0xFFFFu);
      q += 4;
      n += 4;
    }
  }
#endif
  for (; q < e && (unsigned)(*q - '0') <= 9; q++, n++) {
    unsigned d = (unsigned)(*q - '0');
    if (n == 19 && x > (UINT64_MAX - d) / 10) return 0;
    if (n == 20) return 0;
    x = x * 10 + d;
  }
  if (n == 0) return 0;
  *s = q;
  *v = x;
  return 1;
}

/* The end of a field at q: white space then ';' (*sep = 1) or the end of
 * the line (*sep = 0); the position after it, or NULL if anything else. */
static inline const char *field_end(const char *q, const char *e, int *sep) {
  while (q < e && is_ws(*q)) q++;
  if (q == e) return *sep = 0, e + 1;
  if (*q == ';') return *sep = 1, q + 1;
  return NULL;
}

/* The fast path for one whole field that is a number: the same result as
 * next_field + parse_u64 in one pass.  Leaves *cur alone on failure. */
static inline int num_field(const char **cur, const char *end, uint64_t *v, int *sep) {
  const char *q = *cur;
  if (q > end) return 0;
  while (q < end && is_ws(*q)) q++;
  if (!digits(&q, end, v) || !(q = field_end(q, end, sep))) return 0;
  *cur = q;
  return 1;
}

/* The same for a whole "#D.Q.S" field. */
static inline int op_field(const char **cur, const char *end, rtg_hcc_profile *p, int *sep) {
  const char *q = *cur;
  uint64_t v[3];
  if (q > end) return 0;
  while (q < end && is_ws(*q)) q++;
  if (q < end && *q == '#') q++;
  for (int i = 0; i < 3; i++) {
    if (!digits(&q, end, &v[i])) return 0;
    if (i < 2 && (q == end || *q++ != '.')) return 0;
  }
  if (v[0] > UINT32_MAX || v[1] > UINT32_MAX || !(q = field_end(q, end, sep))) return 0;
  p->device = (uint32_t)v[0];
  p->queue = (uint32_t)v[1];
  p->seq = v[2];
  *cur = q;
  return 1;
}

int rtg_hcc_profile_parse(const char *line, size_t len, rtg_hcc_profile *p, const char **why) {
  const char *dummy;
  if (!why) why = &dummy;
  *why = NULL;
  if (len < PREFIX_LEN || memcmp(line, PREFIX, PREFIX_LEN) != 0) return 0;
  p->enq = p->start = p->stop = p->bytes = p->seq = 0;
  p->device = p->queue = 0;
  p->flags = 0;
  const char *end = line + len, *cur = line + PREFIX_LEN;
  span f;
  int sep = 0;

  next_field(&cur, end, &f, &sep);
  if (!is_word(f)) {
    *why = "profile line without a type word";
    return -1;
  }
  p->type = f.s, p->type_len = f.n;
  if (!sep || !next_field(&cur, end, &f, &sep)) {
    *why = "profile line without a name field";
    return -1;
  }
  p->name = f.s, p->name_len = f.n;
  if (!sep || !next_field(&cur, end, &f, &sep) || !parse_dur(f, &p->dur_us)) {
    *why = "profile line without a duration (\"N us\")";
    return -1;
  }

  /* Up to three timestamps: START;STOP or, from old hcc, ENQ;START;STOP. */
  uint64_t t[3];
  const char *at[3]; /* where each timestamp field began */
  int nt = 0;
  while (sep && nt < 3) {
    const char *save = cur;
    if (!num_field(&cur, end, &t[nt], &sep)) break; /* sep stays 1 */
    at[nt++] = save;
  }
  if (nt == 1) {
    *why = "profile line with one timestamp (start and stop needed)";
    return -1;
  }
  if (nt == 3 && t[0] > t[1]) {
    /* Not an enqueue time: like rpt, take the first two as start and stop;
     * the third then sits where the #op tag belongs. */
    nt = 2;
    cur = at[2];
    sep = 1;
  }
  if (nt >= 2) {
    p->flags |= RTG_HCC_HAS_TIMES;
    if (nt == 3) {
      p->flags |= RTG_HCC_HAS_ENQ;
      p->enq = t[0], p->start = t[1], p->stop = t[2];
    } else {
      p->enq = p->start = t[0];
      p->stop = t[1];
    }
  }
  const char *rest = cur; /* start of the first field not consumed */

  /* The #op tag, then everything after it is EXTRA. */
  int had;
  if (sep && cur <= end && op_field(&cur, end, p, &had)) {
    p->flags |= RTG_HCC_HAS_OP;
    rest = cur;
  } else if (sep && cur <= end) {
    const char *save = cur;
    next_field(&cur, end, &f, &had);
    if (f.n && parse_op(f, p)) {
      p->flags |= RTG_HCC_HAS_OP;
      rest = cur;
    } else {
      if (f.n) p->flags |= RTG_HCC_BAD_OP;
      rest = save;
    }
  }
  if (rest && rest <= end) {
    span x = trim(rest, end);
    p->extra = x.s, p->extra_len = x.n;
  } else {
    p->extra = end, p->extra_len = 0;
  }

  /* Copies: "N bytes" first in EXTRA (rpt took its first word). */
  if (p->extra_len) {
    const char *s = p->extra, *e = p->extra + p->extra_len, *w = s;
    while (w < e && *w >= '0' && *w <= '9') w++;
    if (w > s && (w == e || is_ws(*w) || *w == ';') &&
        parse_u64((span){s, (size_t)(w - s)}, &p->bytes))
      p->flags |= RTG_HCC_HAS_BYTES;
  }
  return 1;
}

int rtg_hcc_profile_type_is(const rtg_hcc_profile *p, const char *type) {
  size_t n = strlen(type);
  return p->type_len == n && memcmp(p->type, type, n) == 0;
}

int rtg_hcc_profile_is_copy(const rtg_hcc_profile *p) {
  return rtg_hcc_profile_type_is(p, "copy") || rtg_hcc_profile_type_is(p, "copyslo");
}

int rtg_hcc_profile_is_gpu(const rtg_hcc_profile *p) {
  return rtg_hcc_profile_type_is(p, "kernel") || rtg_hcc_profile_type_is(p, "barrier");
}

size_t rtg_hcc_profile_format(char *buf, size_t cap, const char *type, const char *name,
                              uint64_t start, uint64_t stop, unsigned device, unsigned queue,
                              uint64_t seq, const char *extra) {
  int n = snprintf(buf, cap, "profile: %7s;\t%40s;\t%6.1f us;\t%llu;\t%llu;\t#%u.%u.%llu;%s\n",
                   type, name, ((double)stop - (double)start) / 1000.0, (unsigned long long)start,
                   (unsigned long long)stop, device, queue, (unsigned long long)seq,
                   extra ? extra : "");
  return n > 0 && (size_t)n < cap ? (size_t)n : 0;
}

size_t rtg_hcc_profile_copy_extra(char *buf, size_t cap, uint64_t bytes, uint64_t start,
                                  uint64_t stop) {
  double bw =
      (double)bytes / ((double)stop - (double)start) * (1000.0 / 1024.0) * (1000.0 / 1024.0);
  int n = snprintf(buf, cap, "\t%llu bytes;\t%g MB;\t%g GB/s;", (unsigned long long)bytes,
                   (double)bytes / 1024.0 / 1024, bw);
  return n > 0 && (size_t)n < cap ? (size_t)n : 0;
}
