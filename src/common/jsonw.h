/* A small buffered JSON writer: the tools write Chrome traces of gigabytes
 * through it, so it does its own number formatting and escaping instead of
 * calling printf per field.  Every string goes out as valid JSON and valid
 * UTF-8: quotes, backslashes and control characters are escaped and bytes
 * that are not well-formed UTF-8 become U+FFFD. */
#ifndef RTG_JSONW_H
#define RTG_JSONW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef struct rtg_jsonw {
  FILE *f;
  char *buf;
  size_t len, cap;
  bool error;                    /* a write failed (disk full...) */
  uint64_t written;              /* bytes handed to f */
  struct rtg_jsonw_async *async; /* the writer thread, if started */
} rtg_jsonw;

/* Writes go to f (not closed by the writer). */
bool rtg_jsonw_init(rtg_jsonw *w, FILE *f);
/* Before the first bytes: from now on a thread of its own writes them, so
 * that formatting goes on during the kernel's copies (jsonw_async.c says
 * how the bytes cross to it); f must not be used by anyone else until
 * rtg_jsonw_finish.  False (the writes stay on this thread) when it could
 * not be started, or without SSE2. */
bool rtg_jsonw_start_async(rtg_jsonw *w);
/* Flush and free the buffer; false if any write failed. */
bool rtg_jsonw_finish(rtg_jsonw *w);
void rtg_jsonw_flush(rtg_jsonw *w);

/* (jsonw_async.c, for jsonw.c: the formatting buffer's size with a writer
 * thread; its bytes handed over; the thread stopped, false if a write
 * failed) */
#define RTG_JSONW_STAGE (64u << 10)
void rtg_jsonw_async_put(rtg_jsonw *w);
bool rtg_jsonw_async_stop(rtg_jsonw *w);

void rtg_jsonw_raw_slow(rtg_jsonw *w, const char *s, size_t n);
/* Raw bytes; inline so that literals cost a memcpy of a known size. */
static inline void rtg_jsonw_raw(rtg_jsonw *w, const char *s, size_t n) {
  if (w->cap - w->len >= n) {
    memcpy(w->buf + w->len, s, n);
    w->len += n;
  } else {
    rtg_jsonw_raw_slow(w, s, n);
  }
}
static inline void rtg_jsonw_lit(rtg_jsonw *w, const char *s) {
  rtg_jsonw_raw(w, s, strlen(s));
}
static inline void rtg_jsonw_ch(rtg_jsonw *w, char c) {
  if (w->len == w->cap) rtg_jsonw_flush(w);
  w->buf[w->len++] = c;
}
/* "s" escaped; NULL writes "". */
void rtg_jsonw_str(rtg_jsonw *w, const char *s);
/* s as a JSON string straight to f (small documents written with stdio:
 * reports, summaries): " and \ escaped, control bytes and DEL as \u00XX. */
void rtg_json_fputs(FILE *f, const char *s);
void rtg_jsonw_strn(rtg_jsonw *w, const char *s, size_t n);
void rtg_jsonw_u64(rtg_jsonw *w, uint64_t v);
/* Nanoseconds as microseconds with up to three decimals, exact:
 * 1234567 -> 1234.567, 1500 -> 1.5, 2000 -> 2. */
void rtg_jsonw_ns_as_us(rtg_jsonw *w, uint64_t ns);

/* The escaped body of a JSON string (without quotes) into out, which must
 * hold 6*n+1 bytes (worst case: every byte \u00XX).  Returns its length. */
size_t rtg_json_escape(char *out, const char *s, size_t n);

/* Length of the well-formed UTF-8 sequence at s (1..4), or 0 if the bytes
 * at s are not one (then the caller replaces one byte). */
int rtg_utf8_seq_len(const unsigned char *s, size_t avail);

/* ns -> "1234.567" (as rtg_jsonw_ns_as_us) into buf[32]; returns length. */
int rtg_fmt_ns_as_us(char *buf, uint64_t ns);
/* v in decimal (as rtg_jsonw_u64) into buf[24]; returns length. */
int rtg_json_fmt_u64(char *buf, uint64_t v);

/* "s" escaped (as rtg_jsonw_strn writes it, quotes included) into out,
 * which has cap bytes: its length, or SIZE_MAX when it may not fit (then
 * out holds anything). */
size_t rtg_json_quote_into(char *out, size_t cap, const char *s, size_t n);

#endif
