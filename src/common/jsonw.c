/* Buffered JSON writer; see jsonw.h. */
#include "jsonw.h"

#include "decimal.h"
#include "outfile.h"

#include <errno.h>

#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define CAP (1u << 20)

bool rtg_jsonw_init(rtg_jsonw *w, FILE *f) {
  memset(w, 0, sizeof *w);
  w->f = f;
  w->cap = CAP;
  w->buf = malloc(w->cap);
  return w->buf != NULL;
}

void rtg_jsonw_flush(rtg_jsonw *w) {
  if (w->len && !w->error) {
    if (w->async)
      rtg_jsonw_async_put(w);
    else if (fwrite(w->buf, 1, w->len, w->f) != w->len)
      w->error = true, rtg_out_note_error(errno);
    w->written += w->len;
  }
  w->len = 0;
}

bool rtg_jsonw_finish(rtg_jsonw *w) {
  rtg_jsonw_flush(w);
  if (w->async && !rtg_jsonw_async_stop(w)) w->error = true;
  if (fflush(w->f)) w->error = true;
  free(w->buf);
  w->buf = NULL;
  return !w->error;
}

/* Room for n more bytes (n <= w->cap). */
static inline char *room(rtg_jsonw *w, size_t n) {
  if (w->cap - w->len < n) rtg_jsonw_flush(w);
  return w->buf + w->len;
}

void rtg_jsonw_raw_slow(rtg_jsonw *w, const char *s, size_t n) {
  while (n) {
    size_t k = n < w->cap ? n : w->cap;
    memcpy(room(w, k), s, k);
    w->len += k;
    s += k;
    n -= k;
  }
}

int rtg_utf8_seq_len(const unsigned char *s, size_t avail) {
  unsigned c = s[0];
  if (c < 0x80) return 1;
  int n;
  unsigned min;
  if (c >= 0xc2 && c <= 0xdf)
    n = 2, min = 0x80;
  else if (c >= 0xe0 && c <= 0xef)
    n = 3, min = 0x800;
  else if (c >= 0xf0 && c <= 0xf4)
    n = 4, min = 0x10000;
  else
    return 0;
  if ((size_t)n > avail) return 0;
  unsigned cp = c & (0x3f >> (n - 1));
  for (int i = 1; i < n; i++) {
    if ((s[i] & 0xc0) != 0x80) return 0;
    cp = cp << 6 | (s[i] & 0x3f);
  }
  if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
  return n;
}

size_t rtg_json_escape(char *out, const char *str, size_t n) {
  static const char hex[] = "0123456789abcdef";
  const unsigned char *s = (const unsigned char *)str;
  char *o = out;
  size_t i = 0;
  while (i < n) {
    unsigned c = s[i];
    if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
      *o++ = (char)c;
      i++;
      continue;
    }
    if (c < 0x80) {
      *o++ = '\\';
      switch (c) {
      case '"':
        *o++ = '"';
        break;
      case '\\':
        *o++ = '\\';
        break;
      case '\n':
        *o++ = 'n';
        break;
      case '\t':
        *o++ = 't';
        break;
      case '\r':
        *o++ = 'r';
        break;
      default:
        *o++ = 'u', *o++ = '0', *o++ = '0', *o++ = hex[c >> 4], *o++ = hex[c & 15];
      }
      i++;
      continue;
    }
    int k = rtg_utf8_seq_len(s + i, n - i);
    if (k) {
      memcpy(o, s + i, (size_t)k);
      o += k;
      i += (size_t)k;
    } else { /* not UTF-8: U+FFFD, escaped so it fits the 6-per-byte bound */
      memcpy(o, "\\ufffd", 6);
      o += 6;
      i++;
    }
  }
  *o = 0;
  return (size_t)(o - out);
}

/* Whether any of the 8 bytes in x is a control character, '"', '\\' or not
 * ASCII.  (v - 1) & ~v has the high bit set in a byte where v's byte is 0
 * (the borrow can flag bytes above a zero too, but "any" stays exact). */
static inline bool needs_escape8(uint64_t x) {
  const uint64_t ones = 0x0101010101010101ull, high = ones * 0x80;
  uint64_t q = x ^ (ones * '"'), b = x ^ (ones * '\\');
  uint64_t control = (x - ones * 0x20) & ~x; /* bytes < 0x20 (for bytes < 0x80) */
  return ((control | ((q - ones) & ~q) | ((b - ones) & ~b) | x) & high) != 0;
}

/* Whether s[0..n) goes out as it is: plain ASCII, nothing to escape. */
static inline bool plain(const char *s, size_t n) {
  size_t i = 0;
#if defined(__SSE2__)
  /* sixteen bytes at a time: names and argument lists are long, and almost
   * never need escaping.  (A signed compare: bytes of 0x80 and more are
   * negative, below ' ' as the control characters are.) */
  const __m128i space = _mm_set1_epi8(' '), quote = _mm_set1_epi8('"'),
                bslash = _mm_set1_epi8('\\');
  for (; i + 16 <= n; i += 16) {
    __m128i v = _mm_loadu_si128((const __m128i *)(s + i));
    __m128i bad = _mm_or_si128(_mm_cmplt_epi8(v, space),
                               _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, bslash)));
    if (_mm_movemask_epi8(bad)) return false;
  }
#endif
  /* eight bytes at a time */
  for (; i + 8 <= n; i += 8) {
    uint64_t x;
    memcpy(&x, s + i, 8);
    if (needs_escape8(x)) return false;
  }
  while (i < n && (unsigned char)s[i] >= 0x20 && (unsigned char)s[i] < 0x80 && s[i] != '"' &&
         s[i] != '\\')
    i++;
  return i == n;
}

/* Copies s[0..n) to o while it is plain (as plain() tells), in blocks
 * stored whole (o has room for n + 15 bytes): false at the first block
 * that is not. */
static inline bool copy_plain(char *o, const char *s, size_t n) {
  size_t i = 0;
#if defined(__SSE2__)
  const __m128i space = _mm_set1_epi8(' '), quote = _mm_set1_epi8('"'),
                bslash = _mm_set1_epi8('\\');
#define BAD16(v)                                                                                   \
  _mm_movemask_epi8(                                                                               \
      _mm_or_si128(_mm_cmplt_epi8(v, space),                                                       \
                   _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, bslash))))
  for (; i + 16 <= n; i += 16) {
    __m128i v = _mm_loadu_si128((const __m128i *)(s + i));
    if (BAD16(v)) return false;
    _mm_storeu_si128((__m128i *)(o + i), v);
  }
  if (i < n && n >= 16) { /* the rest as the last 16 bytes, overlapping what was done */
    __m128i v = _mm_loadu_si128((const __m128i *)(s + n - 16));
    if (BAD16(v)) return false;
    _mm_storeu_si128((__m128i *)(o + n - 16), v);
    return true;
  }
#undef BAD16
#endif
  for (; i + 8 <= n; i += 8) {
    uint64_t x;
    memcpy(&x, s + i, 8);
    if (needs_escape8(x)) return false;
    memcpy(o + i, &x, 8);
  }
  for (; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c < 0x20 || c >= 0x80 || c == '"' || c == '\\') return false;
    o[i] = (char)c;
  }
  return true;
}

size_t rtg_json_quote_into(char *out, size_t cap, const char *s, size_t n) {
  /* the common case: plain, copied as it is scanned */
  if (cap >= n + 2 + 15 && copy_plain(out + 1, s, n)) {
    out[0] = '"';
    out[n + 1] = '"';
    return n + 2;
  }
  if (plain(s, n)) { /* (too little room for copy_plain's blocks) */
    if (cap < n + 2) return SIZE_MAX;
    out[0] = '"';
    memcpy(out + 1, s, n);
    out[n + 1] = '"';
    return n + 2;
  }
  /* the worst case: every byte \u00XX (rtg_jsonw_strn escapes longer
   * strings in slices, cut where a broken sequence may read otherwise) */
  if (n > 4096 || cap < 2 || n > (cap - 2) / 6) return SIZE_MAX;
  size_t k = rtg_json_escape(out + 1, s, n);
  out[0] = '"';
  out[k + 1] = '"';
  return k + 2;
}

void rtg_jsonw_strn(rtg_jsonw *w, const char *s, size_t n) {
  rtg_jsonw_ch(w, '"');
  /* the common case: short plain ASCII, nothing to escape */
  if (n < 256 && w->cap - w->len > n + 1) {
    if (plain(s, n)) {
      memcpy(w->buf + w->len, s, n);
      w->len += n;
      w->buf[w->len++] = '"';
      return;
    }
  }
  /* escape in slices that fit the buffer */
  while (n) {
    size_t k = n < 4096 ? n : 4096;
    /* do not cut a UTF-8 sequence in two */
    if (k < n)
      while (k > 1 && ((unsigned char)s[k] & 0xc0) == 0x80 && k > 4092) k--;
    char *o = room(w, 6 * k + 1);
    w->len += rtg_json_escape(o, s, k);
    s += k;
    n -= k;
  }
  rtg_jsonw_ch(w, '"');
}

void rtg_jsonw_str(rtg_jsonw *w, const char *s) {
  rtg_jsonw_strn(w, s ? s : "", s ? strlen(s) : 0);
}

int rtg_json_fmt_u64(char *buf, uint64_t v) {
  return (int)rtg_dec_put(buf, v);
}

void rtg_jsonw_u64(rtg_jsonw *w, uint64_t v) {
  w->len += rtg_dec_put(room(w, RTG_DEC_ROOM), v);
}

int rtg_fmt_ns_as_us(char *buf, uint64_t ns) {
  int n = (int)rtg_dec_put(buf, ns / 1000);
  unsigned frac = (unsigned)(ns % 1000);
  if (frac) { /* ".fff" by hand, then trailing zeros dropped */
    buf[n] = '.';
    buf[n + 1] = (char)('0' + frac / 100);
    buf[n + 2] = (char)('0' + frac / 10 % 10);
    buf[n + 3] = (char)('0' + frac % 10);
    n += 4;
    while (buf[n - 1] == '0') n--;
  }
  buf[n] = 0;
  return n;
}

void rtg_jsonw_ns_as_us(rtg_jsonw *w, uint64_t ns) {
  w->len += (size_t)rtg_fmt_ns_as_us(room(w, 32), ns);
}

void rtg_json_fputs(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      fputc('\\', f), fputc(c, f);
    else if (c < 0x20 || c == 0x7f)
      fprintf(f, "\\u%04x", c);
    else
      fputc(c, f);
  }
  fputc('"', f);
}
