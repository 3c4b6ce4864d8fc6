/* Protocol buffers wire writer; see pbw.h. */
#include "pbw.h"

#include <stdlib.h>

#include "xalloc.h"

bool pbw_init(pbw *w, size_t cap) {
  memset(w, 0, sizeof *w);
  if (cap < 4096) cap = 4096;
  w->buf = malloc(cap);
  w->cap = w->buf ? cap : 0;
  return w->buf != NULL;
}

void pbw_free(pbw *w) {
  free(w->buf);
  memset(w, 0, sizeof *w);
}

void pbw_grow(pbw *w, size_t extra) {
  size_t nc = w->cap ? w->cap * 2 : 4096;
  while (nc < w->n + extra) nc *= 2;
  uint8_t *nb = rtg_xrealloc(w->buf, nc, "a protobuf buffer");
  w->buf = nb;
  w->cap = nc;
}

/* The content [start, start + len) moves up by the extra length bytes. */
void pbw_close_long(pbw *w, size_t start, size_t len) {
  size_t k = pbw_varint_len(len);
  pbw_need(w, k);
  memmove(w->buf + start + k - 1, w->buf + start, len);
  size_t end = start + len + k - 1;
  w->n = start - 1;
  pbw_put_varint(w, len);
  w->n = end;
}
