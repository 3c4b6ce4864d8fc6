/* The record writer and parser, both driven by the field lists of
 * include/rtg/record.h so that what one writes the other reads. */
#define _GNU_SOURCE /* memmem */
#include "decimal.h"
#include "rtg/record.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

enum style { KV, KVI, KVS, KVW, KV3, FUNC, ARGS, ARGA, KERN, RET, AT, PLUS };
enum ftype { T_u64, T_i64, T_str, T_dim3 };
enum { OPT = 0, REQ = 1 };

typedef struct field_desc {
  const char *key;
  unsigned char klen; /* strlen(key), so the parser compares lengths first */
  unsigned char style, type, req;
  unsigned short offset; /* within the kind's struct */
} field_desc;

typedef struct kind_desc {
  const char *prefix;        /* "HSA" */
  const char *keyword;       /* "dispatch", or "" for kinds without one */
  unsigned char plen, kwlen; /* their lengths */
  const char *name;
  const field_desc *fields;
  int nfields;
  uint64_t required;   /* bit mask of REQ fields */
  unsigned short size; /* of its struct in rtg_record.u */
} kind_desc;

#define FD(K, type, member, key, style, flags)                                                     \
  {key, sizeof(key) - 1, style, T_##type, flags, (unsigned short)offsetof(rtg_rec_##K, member)},
#define KIND_FIELDS(K, p, k, FIELDS) static const field_desc fields_##K[] = {FIELDS(FD, K)};
RTG_RECORD_KINDS(KIND_FIELDS)

#define REQBIT(K, type, member, key, style, flags) | ((uint64_t)(flags) << RTG_FIELD(K, member))
#define KIND_DESC(K, p, k, FIELDS)                                                                 \
  [RTG_KIND_##K] = {p,                                                                             \
                    k,                                                                             \
                    sizeof(p) - 1,                                                                 \
                    sizeof(k) - 1,                                                                 \
                    #K,                                                                            \
                    fields_##K,                                                                    \
                    RTG_NFIELDS_##K,                                                               \
                    0 FIELDS(REQBIT, K),                                                           \
                    sizeof(rtg_rec_##K)},
static const kind_desc kinds[RTG_KIND_COUNT] = {RTG_RECORD_KINDS(KIND_DESC)};

const char *rtg_kind_name(enum rtg_kind kind) {
  static const char *const names[RTG_KIND_COUNT] = {
      [RTG_KIND_NONE] = "none",         [RTG_KIND_HEADER] = "header",
      [RTG_KIND_AGENT] = "agent",       [RTG_KIND_QUEUE] = "queue",
      [RTG_KIND_SUMMARY] = "summary",   [RTG_KIND_STACK] = "stack",
      [RTG_KIND_SYMBOL] = "symbol",     [RTG_KIND_DISPATCH_HOST] = "dispatch_host",
      [RTG_KIND_DISPATCH] = "dispatch", [RTG_KIND_BARRIER_HOST] = "barrier_host",
      [RTG_KIND_BARRIER] = "barrier",   [RTG_KIND_COPY] = "copy",
      [RTG_KIND_HSA_API] = "hsa_api",   [RTG_KIND_HIP_API] = "hip_api",
      [RTG_KIND_ROCTX] = "roctx",       [RTG_KIND_KERNEL] = "kernel",
      [RTG_KIND_MEMORY] = "memory",     [RTG_KIND_MPI] = "mpi",
  };
  return (unsigned)kind < RTG_KIND_COUNT && names[kind] ? names[kind] : "?";
}

void rtg_record_init(rtg_record *r, enum rtg_kind kind, uint32_t pid, uint64_t tid) {
  /* only the kind's own struct: the union is several times larger, and the
   * tracer's writer makes millions of records a second */
  bool known = kind > RTG_KIND_NONE && kind < RTG_KIND_COUNT;
  memset(r, 0, offsetof(rtg_record, u) + (known ? kinds[kind].size : sizeof r->u));
  r->kind = kind;
  r->pid = pid;
  r->tid = tid;
  r->present = kind > RTG_KIND_NONE && kind < RTG_KIND_COUNT ? kinds[kind].required : 0;
}

/* ------------------------------------------------------------------ writer */

typedef struct out {
  char *p, *end;
  bool overflow;
} out;

static void put_mem(out *o, const char *s, size_t n) {
  if ((size_t)(o->end - o->p) < n) {
    o->overflow = true;
    o->p = o->end;
    return;
  }
  memcpy(o->p, s, n);
  o->p += n;
}
static void put_str(out *o, const char *s) {
  put_mem(o, s, strlen(s));
}
static void put_ch(out *o, char c) {
  if (o->p < o->end)
    *o->p++ = c;
  else
    o->overflow = true;
}

static void put_u64(out *o, uint64_t v) {
  if ((size_t)(o->end - o->p) >= RTG_DEC_ROOM) { /* the usual case: room to spare */
    o->p += rtg_dec_put(o->p, v);
    return;
  }
  unsigned n = rtg_dec_len(v);
  if ((size_t)(o->end - o->p) < n) {
    o->overflow = true;
    o->p = o->end;
    return;
  }
  o->p += n;
  rtg_dec_write(o->p, v);
}

static void put_i64(out *o, int64_t v) {
  if (v < 0) {
    put_ch(o, '-');
    put_u64(o, (uint64_t)0 - (uint64_t)v);
  } else {
    put_u64(o, (uint64_t)v);
  }
}

/* Quoted string: backslash, quote and control bytes escaped, so one record
 * stays one line whatever a kernel or marker name contains. */
static void put_quoted(out *o, const char *s) {
  static const char hex[] = "0123456789abcdef";
  put_ch(o, '\'');
  for (const unsigned char *c = (const unsigned char *)(s ? s : ""); *c; c++) {
    if (*c == '\\' || *c == '\'') {
      put_ch(o, '\\');
      put_ch(o, (char)*c);
    } else if (*c < 0x20 || *c == 0x7f) {
      char e[4] = {'\\', 'x', hex[*c >> 4], hex[*c & 15]};
      put_mem(o, e, 4);
    } else {
      put_ch(o, (char)*c);
    }
  }
  put_ch(o, '\'');
}

/* Bytes a token cannot hold as they are (NUL ends it): controls, space, DEL. */
static const bool not_in_word[256] = {
    [0] = 1,  [1] = 1,  [2] = 1,  [3] = 1,  [4] = 1,  [5] = 1,   [6] = 1,    [7] = 1,  [8] = 1,
    [9] = 1,  [10] = 1, [11] = 1, [12] = 1, [13] = 1, [14] = 1,  [15] = 1,   [16] = 1, [17] = 1,
    [18] = 1, [19] = 1, [20] = 1, [21] = 1, [22] = 1, [23] = 1,  [24] = 1,   [25] = 1, [26] = 1,
    [27] = 1, [28] = 1, [29] = 1, [30] = 1, [31] = 1, [' '] = 1, [0x7f] = 1,
};

/* A token: spaces and control bytes become '_' so the line stays parseable. */
static void put_word(out *o, const char *s) {
  if (!s || !*s) {
    put_ch(o, '-');
    return;
  }
  const unsigned char *c = (const unsigned char *)s;
  while (!not_in_word[c[0]]) { /* four at a time while they are clean */
    if (not_in_word[c[1]]) {
      c += 1;
      break;
    }
    if (not_in_word[c[2]]) {
      c += 2;
      break;
    }
    if (not_in_word[c[3]]) {
      c += 3;
      break;
    }
    c += 4;
  }
  put_mem(o, s, (size_t)((const char *)c - s)); /* the clean prefix: usually all */
  for (; *c; c++) put_ch(o, (*c <= ' ' || *c == 0x7f) ? '_' : (char)*c);
}

/* Raw text (arguments): only newlines would break a record, so they go.
 * strcspn: for the writer's short texts a word-at-a-time scan's strlen and
 * set-up cost more. */
static void put_raw(out *o, const char *s) {
  for (s = s ? s : "";;) {
    size_t n = strcspn(s, "\n\r");
    put_mem(o, s, n);
    if (!s[n]) return;
    put_ch(o, ' ');
    s += n + 1;
  }
}

/* A HIP argument list is found again by matching parentheses (a kernel name
 * in brackets may follow it), so it is written balanced: a stray ')' becomes
 * ' ' and unclosed '(' are closed at the end. */
static void put_balanced(out *o, const char *s) {
  int depth = 0;
  for (const char *c = s ? s : ""; *c; c++) {
    char ch = (*c == '\n' || *c == '\r') ? ' ' : *c;
    if (ch == '(') depth++;
    if (ch == ')' && depth-- == 0) {
      depth = 0;
      ch = ' ';
    }
    put_ch(o, ch);
  }
  while (depth-- > 0) put_ch(o, ')');
}

/* "HSA: pid:P tid:T": the same for every record a thread makes, and the
 * tracer's writer formats its records thread by thread, so the last one is
 * kept (per formatting thread) and copied. */
static void put_ids(out *o, const kind_desc *k, uint32_t pid, uint64_t tid) {
  static __thread struct {
    const kind_desc *k;
    uint32_t pid;
    uint64_t tid;
    uint8_t len;
    char text[64];
  } last;
  __typeof__(last) *c = &last; /* once: in the tracer each access is a call */
  if (c->k != k || c->pid != pid || c->tid != tid || !c->len) {
    out t = {c->text, c->text + sizeof c->text, false};
    put_mem(&t, k->prefix, k->plen);
    put_str(&t, ": pid:");
    put_u64(&t, pid);
    put_str(&t, " tid:");
    put_u64(&t, tid);
    c->k = k, c->pid = pid, c->tid = tid;
    c->len = t.overflow ? 0 : (uint8_t)(t.p - c->text);
    if (!c->len) { /* (cannot happen: a prefix and two numbers) */
      put_mem(o, c->text, (size_t)(t.p - c->text));
      return;
    }
  }
  put_mem(o, c->text, c->len);
}

/* One field as the line shows it.  Inlined with a constant style, so each
 * kind's formatter below is straight code: no loop over the kind's field
 * table and no switch per field (the tracer's writer formats millions of
 * records a second). */
static inline __attribute__((always_inline)) void
put_field(out *o, enum style style, const char *key, size_t klen, const void *v, bool clean) {
#define S (*(const char *const *)v) /* the string of a string style's field */
  /* a clean string (rtg_record.clean) is copied as it is: a word still
   * shows an empty one as '-' */
#define CLEAN_OR(put)                                                                              \
  (clean && S && (*S || style == ARGS || style == ARGA || style == KERN) ? put_str(o, S)           \
                                                                         : put(o, S))
  switch (style) {
  case FUNC:
    put_ch(o, ' ');
    CLEAN_OR(put_word);
    return;
  case ARGS:
    put_mem(o, " (", 2);
    CLEAN_OR(put_raw);
    put_ch(o, ')');
    return;
  case ARGA:
    put_ch(o, '(');
    CLEAN_OR(put_balanced);
    put_ch(o, ')');
    return;
  case KERN:
    put_mem(o, " [", 2);
    CLEAN_OR(put_raw);
    put_ch(o, ']');
    return;
  case RET:
    put_mem(o, " ret=", 5);
    CLEAN_OR(put_word);
    return;
  case AT:
    put_mem(o, " @", 2);
    put_u64(o, *(const uint64_t *)v);
    return;
  case PLUS:
    put_mem(o, " +", 2);
    put_u64(o, *(const uint64_t *)v);
    return;
  default:
    break;
  }
  put_ch(o, ' ');
  put_mem(o, key, klen);
  put_ch(o, ':');
  if (style == KV) {
    put_u64(o, *(const uint64_t *)v);
  } else if (style == KVI) {
    put_i64(o, *(const int64_t *)v);
  } else if (style == KVS) {
    if (clean && S) {
      put_ch(o, '\'');
      put_str(o, S);
      put_ch(o, '\'');
    } else {
      put_quoted(o, S);
    }
  } else if (style == KVW) {
    CLEAN_OR(put_word);
  } else if (style == KV3) {
    const rtg_dim3 *d = v;
    put_ch(o, '{');
    put_u64(o, d->x);
    put_ch(o, ',');
    put_u64(o, d->y);
    put_ch(o, ',');
    put_u64(o, d->z);
    put_ch(o, '}');
  }
#undef CLEAN_OR
#undef S
}

/* Each kind's fields in line order, from the kind's one definition. */
#define PUT_FIELD(K, type, member, key, style, flags)                                              \
  if (RTG_HAS(r, RTG_FIELD(K, member)))                                                            \
    put_field(o, style, key, sizeof(key) - 1, &r->u.K.member,                                      \
              (r->clean >> RTG_FIELD(K, member)) & 1);
#define KIND_FORMAT(K, p, k, FIELDS)                                                               \
  static void format_fields_##K(out *o, const rtg_record *r) {                                     \
    FIELDS(PUT_FIELD, K)                                                                           \
  }
RTG_RECORD_KINDS(KIND_FORMAT)
#define KIND_FORMAT_FN(K, p, k, FIELDS) [RTG_KIND_##K] = format_fields_##K,
static void (*const format_fields[RTG_KIND_COUNT])(out *, const rtg_record *) = {
    RTG_RECORD_KINDS(KIND_FORMAT_FN)};

size_t rtg_record_format(char *buf, size_t cap, const rtg_record *r) {
  if (r->kind <= RTG_KIND_NONE || r->kind >= RTG_KIND_COUNT || cap < 2) return 0;
  const kind_desc *k = &kinds[r->kind];
  out o = {buf, buf + cap - 1, false}; /* room for the NUL */
  put_ids(&o, k, r->pid, r->tid);
  if (k->kwlen) {
    put_ch(&o, ' ');
    put_mem(&o, k->keyword, k->kwlen);
  }
  format_fields[r->kind](&o, r);
  put_ch(&o, '\n');
  if (o.overflow) return 0;
  *o.p = 0;
  return (size_t)(o.p - buf);
}

/* ------------------------------------------------------------------ parser */

typedef struct cursor {
  char *p, *end;
} cursor;

static bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

static inline bool eat_n(cursor *c, const char *lit, size_t n) {
  if ((size_t)(c->end - c->p) < n || memcmp(c->p, lit, n)) return false;
  c->p += n;
  return true;
}
/* literals only: the length is known at compile time, so memcmp inlines */
#define eat(c, lit) eat_n(c, "" lit, sizeof(lit) - 1)

/* How many digits lead the 8 bytes at p (0 to 8), and their value in *v:
 * no branch per digit, so numbers of any length cost the same. */
static inline int lead_digits(const char *p, uint64_t *v) {
  uint64_t x;
  memcpy(&x, p, 8); /* little-endian: p[0] is the low byte */
  /* a byte is a digit when its high nibble is 3 and adding 6 does not
   * carry out of its low nibble (exact up to the first non-digit) */
  uint64_t bad = ((x & 0xf0f0f0f0f0f0f0f0ull) ^ 0x3030303030303030ull) |
                 (((x + 0x0606060606060606ull) & 0xf0f0f0f0f0f0f0f0ull) ^ 0x3030303030303030ull);
  int n = bad ? __builtin_ctzll(bad) >> 3 : 8;
  if (!n) return *v = 0, 0;
  x = (x << (8 * (8 - n))) & 0x0f0f0f0f0f0f0f0full; /* the n digits last, zeros before */
  x = (x * 10 + (x >> 8)) & 0x00ff00ff00ff00ffull;
  x = (x * 100 + (x >> 16)) & 0x0000ffff0000ffffull;
  *v = (x * 10000 + (x >> 32)) & 0xffffffffull;
  return n;
}

static inline bool parse_u64(cursor *c, uint64_t *v) {
  static const uint64_t pow10[9] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};
  uint64_t x = 0, d;
  char *s = c->p, *p = s, *end = c->end; /* (locals: the stores to c->p would not leave the loop) */
  /* up to two blocks of 8 bytes: 16 digits always fit */
  for (int b = 0; b < 2 && end - p >= 8; b++) {
    int n = lead_digits(p, &d);
    x = x * pow10[n] + d;
    p += n;
    if (n < 8) goto done; /* the number ended in this block */
  }
  /* 19 digits always fit in 64 bits: check for overflow only after them */
  char *safe = end - s > 19 ? s + 19 : end;
  while (p < safe && is_digit(*p)) x = x * 10 + (unsigned)(*p++ - '0');
  while (p < end && is_digit(*p)) {
    if (__builtin_mul_overflow(x, 10, &x) || __builtin_add_overflow(x, (unsigned)(*p - '0'), &x)) {
      c->p = p;
      return false;
    }
    p++;
  }
done:
  c->p = p;
  *v = x;
  return p > s;
}

static bool parse_i64(cursor *c, int64_t *v) {
  bool neg = c->p < c->end && *c->p == '-';
  if (neg) c->p++;
  uint64_t u;
  if (!parse_u64(c, &u) || u > (uint64_t)INT64_MAX + neg) return false;
  *v = neg ? (int64_t)(0 - u) : (int64_t)u;
  return true;
}

static int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* The first byte at or after p (before e) that is a or b, or e.  Sixteen
 * bytes at a time where SSE2 is there: names are tens of bytes long. */
static inline char *find2(char *p, char *e, char a, char b) {
#if defined(__SSE2__)
  const __m128i va = _mm_set1_epi8(a), vb = _mm_set1_epi8(b);
  for (; e - p >= 16; p += 16) {
    __m128i v = _mm_loadu_si128((const __m128i *)p);
    int m = _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, va), _mm_cmpeq_epi8(v, vb)));
    if (m) return p + __builtin_ctz((unsigned)m);
  }
#endif
  while (p < e && *p != a && *p != b) p++;
  return p;
}

/* The first " start:" in [p, e), or NULL (memmem, with SSE2 where it is:
 * candidates are the places of " s", checked one by one). */
static inline const char *find_start_key(const char *p, const char *e) {
#if defined(__SSE2__)
  const __m128i sp = _mm_set1_epi8(' '), s = _mm_set1_epi8('s');
  for (; e - p >= 17; p += 16) {
    __m128i v0 = _mm_loadu_si128((const __m128i *)p),
            v1 = _mm_loadu_si128((const __m128i *)(p + 1));
    unsigned m =
        (unsigned)_mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(v0, sp), _mm_cmpeq_epi8(v1, s)));
    for (; m; m &= m - 1) {
      const char *q = p + __builtin_ctz(m);
      if (e - q >= 7 && !memcmp(q, " start:", 7)) return q;
    }
  }
#endif
  return memmem(p, (size_t)(e - p), " start:", 7);
}

/* 'text' with escapes, unescaped in place and NUL-terminated. */
static bool parse_quoted(cursor *c, const char **out) {
  if (c->p >= c->end || *c->p != '\'') return false;
  char *w = ++c->p, *start = w;
  /* up to the first quote or backslash nothing moves */
  c->p = w = find2(c->p, c->end, '\'', '\\');
  while (c->p < c->end && *c->p != '\'') {
    if (*c->p == '\\' && c->p + 1 < c->end) {
      char e = c->p[1];
      if (e == 'x' && c->p + 3 < c->end && hexval(c->p[2]) >= 0 && hexval(c->p[3]) >= 0) {
        *w++ = (char)(hexval(c->p[2]) << 4 | hexval(c->p[3]));
        c->p += 4;
      } else {
        *w++ = e;
        c->p += 2;
      }
    } else {
      *w++ = *c->p++;
    }
  }
  if (c->p >= c->end) return false; /* unterminated: a truncated line */
  c->p++;
  *w = 0;
  *out = start;
  return true;
}

/* The first ' ' at or after the cursor, or the end: function names and
 * keywords are tens of bytes long, so sixteen bytes at a time. */
static inline char *word_end(cursor *c) {
  return find2(c->p, c->end, ' ', ' ');
}

static bool parse_dim3(cursor *c, rtg_dim3 *d) {
  uint64_t x, y, z;
  if (!eat(c, "{") || !parse_u64(c, &x) || !eat(c, ",") || !parse_u64(c, &y) || !eat(c, ",") ||
      !parse_u64(c, &z) || !eat(c, "}") || x > UINT32_MAX || y > UINT32_MAX || z > UINT32_MAX)
    return false;
  d->x = (uint32_t)x, d->y = (uint32_t)y, d->z = (uint32_t)z;
  return true;
}

/* Skip the value of a key this version does not know (a newer writer's). */
static void skip_value(cursor *c) {
  const char *ignored;
  if (c->p < c->end && *c->p == '\'') {
    if (parse_quoted(c, &ignored)) return;
  } else if (c->p < c->end && *c->p == '{') {
    while (c->p < c->end && *c->p != '}') c->p++;
    if (c->p < c->end) c->p++;
    return;
  }
  c->p = word_end(c);
}

/* Short strings: a loop beats a call to memcmp. */
static inline bool same(const char *a, const char *b, size_t n) {
  /* keys of 2 to 8 bytes (most): two overlapping loads of each, no loop */
  if (n >= 4 && n <= 8) {
    uint32_t a0, b0, a1, b1;
    memcpy(&a0, a, 4), memcpy(&b0, b, 4), memcpy(&a1, a + n - 4, 4), memcpy(&b1, b + n - 4, 4);
    return ((a0 ^ b0) | (a1 ^ b1)) == 0;
  }
  if (n >= 2 && n < 4) {
    uint16_t a0, b0, a1, b1;
    memcpy(&a0, a, 2), memcpy(&b0, b, 2), memcpy(&a1, a + n - 2, 2), memcpy(&b1, b + n - 2, 2);
    return ((a0 ^ b0) | (a1 ^ b1)) == 0;
  }
  for (size_t i = 0; i < n; i++)
    if (a[i] != b[i]) return false;
  return true;
}

static inline bool key_is(const field_desc *f, const char *key, size_t klen) {
  return f->klen == klen && f->style < FUNC && same(f->key, key, klen);
}

/* Index of the key-value field named key, or -1.  The search starts at
 * `next` (fields come in order) and wraps around; no division, since this
 * runs for every field of every line. */
static int find_key(const kind_desc *k, int next, const char *key, size_t klen) {
  if (!klen) return -1;
  for (int i = next; i < k->nfields; i++)
    if (key_is(&k->fields[i], key, klen)) return i;
  for (int i = 0; i < next && i < k->nfields; i++)
    if (key_is(&k->fields[i], key, klen)) return i;
  return -1;
}

/* The key:value fields from c to the end of the line.  `next` remembers
 * where the previous key was found: fields come in order, so the expected
 * key is tried first and the lookup is usually one comparison. */
static const char *parse_kv(cursor *c, const kind_desc *k, rtg_record *r) {
  char *base = (char *)&r->u;
  int next = 0;
  while (c->p < c->end) {
    if (*c->p == ' ') {
      c->p++;
      continue;
    }
    char *key = c->p, *colon = key;
    int idx;
    const field_desc *x = next < k->nfields ? &k->fields[next] : NULL;
    if (x && x->klen && x->style < FUNC && c->end - key > x->klen && key[x->klen] == ':' &&
        same(x->key, key, x->klen)) {
      idx = next; /* the expected key (keys hold no ':' nor ' ') */
      colon = key + x->klen;
    } else {
      while (colon < c->end && *colon != ':' && *colon != ' ') colon++;
      if (colon >= c->end || *colon != ':') return "expected key:value";
      idx = find_key(k, next, key, (size_t)(colon - key));
    }
    c->p = colon + 1;
    if (idx < 0) {
      skip_value(c);
      continue;
    }
    const field_desc *f = &k->fields[idx];
    void *v = base + f->offset;
    bool ok = true;
    switch (f->style) {
    case KV:
      ok = parse_u64(c, v);
      break;
    case KVI:
      ok = parse_i64(c, v);
      break;
    case KVS:
      ok = parse_quoted(c, (const char **)v);
      break;
    case KV3:
      ok = parse_dim3(c, v);
      break;
    case KVW: {
      char *e = word_end(c);
      *(const char **)v = c->p;
      c->p = e < c->end ? e + 1 : e;
      *e = 0;
      break;
    }
    }
    if (!ok) return "bad field value";
    if (c->p < c->end && *c->p != ' ' && f->style != KVW) return "bad field value";
    r->present |= 1ull << idx;
    next = idx + 1;
  }
  return NULL;
}

/* The tail of an API line: " ret=R @START +DUR", then key:value fields. */
typedef struct api_tail {
  char *at;      /* its " ret=" */
  char *ret_end; /* the end of R */
  char *end;     /* after DUR */
  uint64_t start, dur;
} api_tail;

/* The arguments before the tail are free text, so search for the last
 * valid tail: backwards from '=' to '=' (memrchr), the last one usually
 * being it. */
static bool find_api_tail(char *s, char *end, api_tail *t) {
  for (char *eq = end; (eq = memrchr(s, '=', (size_t)(eq - s))) != NULL;) {
    char *p = eq - 4;
    if (p < s || !same(p, " ret", 4)) continue;
    cursor c = {p + 5, end};
    c.p = t->ret_end = word_end(&c);
    if (eat(&c, " @") && parse_u64(&c, &t->start) && eat(&c, " +") && parse_u64(&c, &t->dur) &&
        (c.p == end || *c.p == ' ')) {
      t->at = p, t->end = c.p;
      return true;
    }
  }
  return false;
}

/* func_end: the first ' ' or '(' of the line after "tid:T " (or its end). */
static const char *parse_api(cursor *c, rtg_record *r, bool hip, char *func_end) {
  api_tail tail;
  if (!find_api_tail(c->p, c->end, &tail)) return "missing ' ret=R @START +DUR'";
  char *head = c->p, *head_end = tail.at;
  const char **func, **args, **kernel = NULL;
  uint64_t *start, *dur;
  int fa, fk = -1, fs, fd;
  if (hip) {
    func = &r->u.HIP_API.func, args = &r->u.HIP_API.args, kernel = &r->u.HIP_API.kernel;
    start = &r->u.HIP_API.start, dur = &r->u.HIP_API.dur;
    fa = RTG_FIELD(HIP_API, args), fk = RTG_FIELD(HIP_API, kernel);
    fs = RTG_FIELD(HIP_API, ret), fd = RTG_FIELD(HIP_API, func);
    /* FUNC[(args)] [kernel]: the argument list is matched by depth, since
     * both it and a demangled kernel name may contain brackets */
    char *p = func_end < head_end ? func_end : head_end;
    if (p < head_end && *p == '(') {
      int depth = 0;
      for (; p < head_end; p++) {
        if (*p == '(')
          depth++;
        else if (*p == ')' && --depth == 0)
          break;
      }
      if (p < head_end) p++;
    }
    if (p + 2 < head_end && p[0] == ' ' && p[1] == '[' && head_end[-1] == ']') {
      *kernel = p + 2;
      head_end[-1] = 0;
      head_end = p;
      r->present |= 1ull << fk;
    }
  } else {
    func = &r->u.HSA_API.func, args = &r->u.HSA_API.args;
    start = &r->u.HSA_API.start, dur = &r->u.HSA_API.dur;
    fa = RTG_FIELD(HSA_API, args), fs = RTG_FIELD(HSA_API, ret), fd = RTG_FIELD(HSA_API, func);
  }
  /* FUNC then "(args)" (HIP, attached) or " (args)" (HSA) */
  char *p = func_end < head_end ? func_end : head_end;
  if (p == head) return "missing function name";
  func_end = p;
  if (!hip) { /* the writer always puts one space before the HSA list */
    if (p + 1 >= head_end || p[0] != ' ' || p[1] != '(') return "missing argument list";
    p++;
  }
  if (p < head_end && *p == '(') {
    if (head_end[-1] != ')') return "unbalanced argument list";
    *args = p + 1;
    head_end[-1] = 0;
    r->present |= 1ull << fa;
  } else if (p != head_end) {
    return "unexpected text after function name";
  } else if (!hip) {
    return "missing argument list";
  }
  *func_end = 0;
  *func = head;
  r->present |= 1ull << fd;
  *(hip ? &r->u.HIP_API.ret : &r->u.HSA_API.ret) = tail.at + 5;
  *tail.ret_end = 0;
  *start = tail.start;
  *dur = tail.dur;
  r->present |= 1ull << fs | 1ull << (fs + 1) | 1ull << (fs + 2);
  c->p = tail.end;
  return NULL;
}

/* The line prefixes, and the kinds of each: those with a keyword, and the
 * one without (the API kind of HSA: and HIP: lines), indexed once, at load
 * time, from kinds[]. */
static const struct {
  const char *text; /* with its ": " */
  size_t len;       /* without */
} prefixes[] = {{"HSA: ", 3}, {"HIP: ", 3}, {"RTG: ", 3}, {"ROCTX: ", 5}, {"MPI: ", 3}};
#define NPREFIXES (int)(sizeof prefixes / sizeof *prefixes)

typedef struct prefix_kinds {
  unsigned char nkw, fallback;
  unsigned char kw[RTG_KIND_COUNT];
  uint32_t kwlens; /* bit n: a keyword of n bytes (bit 31: of 31 or more) */
} prefix_kinds;
static prefix_kinds by_prefix[NPREFIXES];

/* Which prefix the line starts with, or -1 (foreign text).  The first
 * byte rules most other lines out. */
static inline int prefix_slot(const char *p, size_t avail) {
  if (avail < 5 || (p[0] != 'H' && p[0] != 'R' && p[0] != 'M')) return -1;
  for (int i = 0; i < NPREFIXES; i++)
    if (avail > prefixes[i].len + 1 && same(p, prefixes[i].text, prefixes[i].len + 2)) return i;
  return -1;
}

__attribute__((constructor)) static void index_kinds(void) {
  for (int i = 1; i < RTG_KIND_COUNT; i++) {
    int slot = 0;
    while (slot < NPREFIXES && (kinds[i].plen != prefixes[slot].len ||
                                memcmp(kinds[i].prefix, prefixes[slot].text, kinds[i].plen)))
      slot++;
    if (slot == NPREFIXES) continue; /* (every kind's prefix is listed) */
    prefix_kinds *b = &by_prefix[slot];
    if (kinds[i].kwlen) {
      b->kw[b->nkw++] = (unsigned char)i;
      b->kwlens |= 1u << (kinds[i].kwlen < 31 ? kinds[i].kwlen : 31);
    } else
      b->fallback = (unsigned char)i;
  }
}

static inline enum rtg_kind parse(char *line, size_t len, rtg_record *r, const char **why,
                                  bool nul_free) {
  cursor c = {line, line + len};
  const char *dummy;
  if (!why) why = &dummy;
  *why = NULL;
  while (c.end > c.p && (c.end[-1] == '\n' || c.end[-1] == '\r')) c.end--;
  *c.end = 0;
  /* prefix */
  /* the prefix is one of 5 words; the first byte rules most lines out */
  size_t plen = 0, avail = (size_t)(c.end - c.p);
  int slot = prefix_slot(c.p, avail);
  if (slot < 0) return RTG_KIND_NONE; /* foreign text, not an error */
  plen = prefixes[slot].len;
  c.p += plen + 2;
  if (!nul_free && memchr(line, 0, (size_t)(c.end - line))) {
    *why = "binary data (NUL bytes) in record";
    return RTG_KIND_NONE;
  }
  r->kind = RTG_KIND_NONE;
  r->present = 0;
  r->clean = 0;
  uint64_t pid, tid;
  if (!eat(&c, "pid:") || !parse_u64(&c, &pid) || pid > UINT32_MAX || !eat(&c, " tid:") ||
      !parse_u64(&c, &tid)) {
    *why = "missing pid:/tid:";
    return RTG_KIND_NONE;
  }
  r->pid = (uint32_t)pid;
  r->tid = tid;
  if (!eat(&c, " ")) {
    *why = "missing space after tid:";
    return RTG_KIND_NONE;
  }
  /* keyword, or the API kind of this prefix */
  /* (up to '(' too: for an API line, where its function name ends) */
  char *kw = c.p, *kw_end = find2(c.p, c.end, ' ', '(');
  size_t kwlen = (size_t)(kw_end - kw);
  const prefix_kinds *pk = &by_prefix[slot];
  enum rtg_kind kind = (enum rtg_kind)pk->fallback;
  /* an API function's name is as long as no keyword: no loop */
  int nkw = pk->kwlens >> (kwlen < 31 ? kwlen : 31) & 1 ? pk->nkw : 0;
  for (int i = 0; i < nkw; i++) {
    const kind_desc *d = &kinds[pk->kw[i]];
    if (d->kwlen == kwlen && same(d->keyword, kw, kwlen)) {
      kind = (enum rtg_kind)pk->kw[i];
      break;
    }
  }
  if (kind == RTG_KIND_NONE) {
    *why = "unknown record keyword";
    return RTG_KIND_NONE;
  }
  if (kinds[kind].kwlen) c.p = kw_end;
  /* host-side and GPU-side dispatch/barrier records share a keyword: only
   * the GPU-side one has start: */
  if (kind == RTG_KIND_DISPATCH_HOST || kind == RTG_KIND_BARRIER_HOST) {
    if (find_start_key(c.p, c.end))
      kind = kind == RTG_KIND_DISPATCH_HOST ? RTG_KIND_DISPATCH : RTG_KIND_BARRIER;
  }
  r->kind = kind;
  memset(&r->u, 0, kinds[kind].size); /* (the kind's struct: less than the union) */
  const char *err = NULL;
  if (kind == RTG_KIND_HSA_API || kind == RTG_KIND_HIP_API)
    err = parse_api(&c, r, kind == RTG_KIND_HIP_API, kw_end);
  if (!err) err = parse_kv(&c, &kinds[kind], r);
  if (!err && (r->present & kinds[kind].required) != kinds[kind].required) {
    static __thread char msg[64];
    uint64_t missing = kinds[kind].required & ~r->present;
    int i = __builtin_ctzll(missing);
    /* positional fields are all set by parse_api, so i names a key */
    snprintf(msg, sizeof msg, "%s record without %s:", rtg_kind_name(kind),
             kinds[kind].fields[i].key);
    err = msg;
  }
  if (err) {
    *why = err;
    r->kind = RTG_KIND_NONE;
    return RTG_KIND_NONE;
  }
  return kind;
}

enum rtg_kind rtg_record_parse(char *line, size_t len, rtg_record *r, const char **why) {
  return parse(line, len, r, why, false);
}

enum rtg_kind rtg_record_parse_nul_free(char *line, size_t len, rtg_record *r, const char **why) {
  return parse(line, len, r, why, true);
}
