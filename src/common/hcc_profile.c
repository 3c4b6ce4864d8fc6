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

static int is_ws(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

static span trim(const char *s, const char *e) {
  while (s < e && is_ws(*s)) s++;
  while (e > s && is_ws(e[-1])) e--;
  return (span){s, (size_t)(e - s)};
}

/* The field at *cur up to the next ';' (or the end), trimmed; *cur moves
 * past the ';'.  Returns 0 when no field is left. */
static int next_field(const char **cur, const char *end, span *f, int *had_sep) {
  if (*cur > end) return 0;
  const char *s = *cur;
  const char *semi = memchr(s, ';', (size_t)(end - s));
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
    if (x > (UINT64_MAX - d) / 10) return 0;
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

/* "12.5 us" (the unit optional): strtod needs a terminated copy. */
static int parse_dur(span f, double *us) {
  char tmp[64];
  if (f.n == 0 || f.n >= sizeof tmp) return 0;
  memcpy(tmp, f.s, f.n);
  tmp[f.n] = 0;
  char *e;
  *us = strtod(tmp, &e);
  if (e == tmp) return 0;
  while (is_ws(*e)) e++;
  if (e[0] == 'u' && e[1] == 's') e += 2;
  return *e == 0;
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

int rtg_hcc_profile_parse(const char *line, size_t len, rtg_hcc_profile *p, const char **why) {
  const char *dummy;
  if (!why) why = &dummy;
  *why = NULL;
  if (len < PREFIX_LEN || memcmp(line, PREFIX, PREFIX_LEN) != 0) return 0;
  memset(p, 0, sizeof *p);
  const char *end = line + len, *cur = line + PREFIX_LEN;
  span f;
  int sep;

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
    if (!next_field(&cur, end, &f, &sep) || !parse_u64(f, &t[nt])) {
      cur = save;
      sep = 1;
      break;
    }
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
  if (sep && cur <= end) {
    const char *save = cur;
    int had;
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
    if (w > s && (w == e || is_ws(*w) || *w == ';') && parse_u64((span){s, (size_t)(w - s)}, &p->bytes))
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
  double bw = (double)bytes / ((double)stop - (double)start) * (1000.0 / 1024.0) * (1000.0 / 1024.0);
  int n = snprintf(buf, cap, "\t%llu bytes;\t%g MB;\t%g GB/s;", (unsigned long long)bytes,
                   (double)bytes / 1024.0 / 1024, bw);
  return n > 0 && (size_t)n < cap ? (size_t)n : 0;
}
