/* Protocol buffers wire format, written directly: varints, fixed64,
 * length-delimited fields and nested messages, into one growable buffer.
 *
 * A nested message is opened with one byte reserved for its length; when
 * it closes longer than 127 bytes, its content moves up to make room for
 * the longer varint (rare for the small messages of a trace), so every
 * length is the minimal encoding.  Callers check room once per record
 * (pbw_need) for the fixed-size fields, and strings check their own. */
#ifndef RTG_PBW_H
#define RTG_PBW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum { PBW_VARINT = 0, PBW_I64 = 1, PBW_LEN = 2, PBW_I32 = 5 };

typedef struct pbw {
  uint8_t *buf;
  size_t n, cap;
} pbw;

bool pbw_init(pbw *w, size_t cap);
void pbw_free(pbw *w);
/* Grow so that extra more bytes fit (out of memory: exits, like the
 * tools' other tables). */
void pbw_grow(pbw *w, size_t extra);

static inline void pbw_need(pbw *w, size_t extra) {
  if (w->n + extra > w->cap) pbw_grow(w, extra);
}

static inline size_t pbw_varint_len(uint64_t v) {
  size_t n = 1;
  while (v >= 0x80) v >>= 7, n++;
  return n;
}

/* The raw encoders assume room (10 bytes for a varint).  A varint at q;
 * returns the byte after it. */
static inline uint8_t *pbw_varint_at(uint8_t *q, uint64_t v) {
  while (v >= 0x80) {
    *q++ = (uint8_t)(v | 0x80);
    v >>= 7;
  }
  *q++ = (uint8_t)v;
  return q;
}

/* The one-byte tag of a field below 16. */
#define PBW_TAG1(field, wire) ((uint8_t)((field) << 3 | (wire)))

static inline void pbw_put_varint(pbw *w, uint64_t v) {
  w->n = (size_t)(pbw_varint_at(w->buf + w->n, v) - w->buf);
}

static inline void pbw_tag(pbw *w, uint32_t field, int wire) {
  pbw_put_varint(w, (uint64_t)field << 3 | (uint64_t)wire);
}

/* Fields, each with room checked. */
static inline void pbw_uint(pbw *w, uint32_t field, uint64_t v) {
  pbw_need(w, 16);
  pbw_tag(w, field, PBW_VARINT);
  pbw_put_varint(w, v);
}

/* int32/int64 fields: negative values are ten-byte varints */
static inline void pbw_int(pbw *w, uint32_t field, int64_t v) {
  pbw_uint(w, field, (uint64_t)v);
}

static inline void pbw_fixed64(pbw *w, uint32_t field, uint64_t v) {
  pbw_need(w, 16);
  pbw_tag(w, field, PBW_I64);
  for (int i = 0; i < 8; i++) w->buf[w->n++] = (uint8_t)(v >> (8 * i));
}

static inline void pbw_double(pbw *w, uint32_t field, double d) {
  uint64_t v;
  memcpy(&v, &d, sizeof v);
  pbw_fixed64(w, field, v);
}

static inline void pbw_bytes(pbw *w, uint32_t field, const void *p, size_t len) {
  pbw_need(w, len + 16);
  pbw_tag(w, field, PBW_LEN);
  pbw_put_varint(w, len);
  memcpy(w->buf + w->n, p, len);
  w->n += len;
}

static inline void pbw_str(pbw *w, uint32_t field, const char *s) {
  pbw_bytes(w, field, s, strlen(s));
}

/* A nested message: returns where its content starts, for pbw_close. */
static inline size_t pbw_open(pbw *w, uint32_t field) {
  pbw_need(w, 16);
  pbw_tag(w, field, PBW_LEN);
  w->buf[w->n++] = 0;
  return w->n;
}

void pbw_close_long(pbw *w, size_t start, size_t len);

static inline void pbw_close(pbw *w, size_t start) {
  size_t len = w->n - start;
  if (len < 0x80)
    w->buf[start - 1] = (uint8_t)len;
  else
    pbw_close_long(w, start, len);
}

#endif
