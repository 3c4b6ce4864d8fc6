/* Held entries: the owner's slow path and the drainer's copy (hold.h says
 * how the two meet). */
#include "hold.h"

#include <string.h>

void rtg_hold_publish_mine(void) {
  if (rtg_tls.chain) rtg_hold_publish(rtg_tls.chain);
}

bool rtg_hold_put_slow(const void *a, size_t alen, const void *b, size_t blen, size_t room) {
  if (alen + blen + room > RTG_HOLD_MAX) return false;
  rtg_tchain *t = rtg_tbuf_chain();
  if (!t) return false;
  rtg_hold_publish(t);
  uint32_t need = rtg_entry_size(alen + blen + room);
  rtg_chunk *c = rtg_tbuf_room(t, need, RTG_PUSH_NORMAL);
  if (!c) return false;
  rtg_hold_write(t, c, atomic_load_explicit(&c->head, memory_order_relaxed), need, a, alen, b,
                 blen);
  return true;
}

enum { COPY_TRIES = 4096 };

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

bool rtg_hold_copy_of(rtg_tchain *t, rtg_hold_copy *out) {
  rtg_hold *h = &t->hold;
  for (int i = 0;; i++) {
    bool last = i >= COPY_TRIES;
    uint32_t s = atomic_load_explicit(&h->seq, memory_order_acquire);
    if ((s & 1) && !last) {
      cpu_relax();
      continue;
    }
    rtg_chunk *c = h->chunk;
    uint32_t off = h->off, len = h->len;
    out->tag = h->tag;
    out->len = 0;
    /* (out of bounds only in a torn copy, when given up) */
    if (c && out->tag && len <= RTG_HOLD_MAX && off <= c->cap &&
        len + sizeof(rtg_entry_hdr) <= c->cap - off) {
      memcpy(out->data, c->data + off + sizeof(rtg_entry_hdr), len);
      out->len = len;
    }
    atomic_thread_fence(memory_order_acquire); /* the copy before the second look */
    if (last || atomic_load_explicit(&h->seq, memory_order_relaxed) == s) return out->len != 0;
  }
}
