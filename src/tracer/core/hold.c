/* Held entries: the owner's slow path (hold.h says how it meets the
 * drainer's copy, rtg_hold_copy_of in tbuf.c). */
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
