/* Held entries (hold.c): a thread may hold back its last entry instead of
 * publishing it, so that the next one, when it is the same call again (a
 * runtime polling a signal), only updates the held one: a count and the
 * last call's times.
 *
 * The held entry is written where it would be anyway, at the head of the
 * thread's current chunk, with room kept after it to grow; it is published
 * (the head moved past it: one store) when the thread makes any other entry
 * (rtg_tbuf_push_on does it first), holds another one, exits or forks.  So
 * holding costs the thread what writing costs, and an entry it does not
 * count into is published as any other.  At the final flush (exit, exec, a
 * fatal signal) the drainer copies what each thread still holds and writes
 * it after that thread's other entries (rtg_tbuf_drain, final): a thread
 * that is blocked or still running then loses nothing.
 *
 * The owner changes the entry and its place (rtg_hold) inside a sequence
 * lock, so the drainer reads a consistent copy without a locked instruction
 * on the owner's path (on x86 the fences below are compiler barriers).  A
 * held entry carries its tag in its header, and tags grow along a chain:
 * the drainer remembers the newest one it wrote (rtg_tchain.drained_tag)
 * and writes no entry of a tag up to it again, so an entry both copied at
 * the final flush and published afterwards (an exec that failed) is
 * written once.  The owner counts no more calls into an entry the drainer
 * copied (rtg_hold.taken): they go to a new one. */
#ifndef RTG_HOLD_H
#define RTG_HOLD_H

#include "tbuf.h"

/* The same for the calling thread: at its exit and before a fork. */
RTG_HIDDEN void rtg_hold_publish_mine(void);

/* The entry the calling thread's chain t holds (format function, then
 * payload: *len bytes), or NULL when it holds none or the drainer copied
 * it.  Writable between rtg_hold_edit_begin and _end, up to the room it
 * was held with. */
static inline char *rtg_hold_entry(rtg_tchain *t, uint32_t *len) {
  if (!t || !t->holding) return NULL;
  if (atomic_load_explicit(&t->hold.taken, memory_order_relaxed) == t->holding) return NULL;
  *len = t->hold.len;
  return t->cur->data + t->hold.off + sizeof(rtg_entry_hdr);
}

/* Around every change the owner makes to its held entry. */
static inline void rtg_hold_edit_begin(rtg_tchain *t) {
  uint32_t s = atomic_load_explicit(&t->hold.seq, memory_order_relaxed);
  atomic_store_explicit(&t->hold.seq, s + 1, memory_order_relaxed);
  atomic_thread_fence(memory_order_release); /* odd before the changes */
}
static inline void rtg_hold_edit_end(rtg_tchain *t) {
  uint32_t s = atomic_load_explicit(&t->hold.seq, memory_order_relaxed);
  atomic_store_explicit(&t->hold.seq, s + 1, memory_order_release); /* the changes before even */
}

/* Inside an edit: the held entry is now len bytes (at most the room it was
 * held with). */
static inline void rtg_hold_resize(rtg_tchain *t, uint32_t len) {
  rtg_entry_hdr h = {len, t->holding};
  memcpy(t->cur->data + t->hold.off, &h, sizeof h);
  t->hold.len = len;
  t->held_end = t->hold.off + rtg_entry_size(len);
}

/* Write the entry (a then b) at head of c, which has room for need
 * bytes, and hold it. */
static inline void rtg_hold_write(rtg_tchain *t, rtg_chunk *c, uint32_t head, uint32_t need,
                                  const void *a, size_t alen, const void *b, size_t blen) {
  uint32_t tag = ++t->next_tag;
  if (!tag) tag = ++t->next_tag; /* 0 means none */
  rtg_hold_edit_begin(t);
  rtg_tbuf_write(c, head, need, a, alen, b, blen, tag);
  t->hold.tag = tag;
  t->hold.chunk = c;
  t->hold.off = head;
  t->hold.len = (uint32_t)(alen + blen);
  rtg_hold_edit_end(t);
  t->holding = tag;
  t->held_end = head + rtg_entry_size(alen + blen);
}

/* The rest of rtg_hold_put, out of line: no chain yet, or a new chunk. */
RTG_HIDDEN bool rtg_hold_put_slow(const void *a, size_t alen, const void *b, size_t blen,
                                  size_t room);

/* Hold back the entry (a then b) on the calling thread, whose chain is t
 * (its rtg_tls.chain, may be NULL), with room bytes more kept to grow into:
 * first publish what it held, then write this one without publishing it.
 * false: not held (longer than RTG_HOLD_MAX, no buffer space: counted as
 * lost), and nothing changed but the publishing.  (Whether the trace is on
 * is the caller's to ask, as for rtg_tbuf_push_on.) */
static inline bool rtg_hold_put(rtg_tchain *t, const void *a, size_t alen, const void *b,
                                size_t blen, size_t room) {
  if (__builtin_expect(t != NULL && alen + blen + room <= RTG_HOLD_MAX, 1)) {
    rtg_hold_publish(t);
    rtg_chunk *c = t->cur;
    uint32_t head = atomic_load_explicit(&c->head, memory_order_relaxed);
    uint32_t need = rtg_entry_size(alen + blen + room);
    if (__builtin_expect(head + need <= c->cap, 1)) {
      rtg_hold_write(t, c, head, need, a, alen, b, blen);
      return true;
    }
  }
  return rtg_hold_put_slow(a, alen, b, blen, room);
}

#endif
