/* The Perfetto output's held packets: an op's begin and end wait on their
 * sequence until the ops-in-flight counter's value at their time is known
 * (the counter's window, perfetto_tracks.c), and then go into the body
 * with that value in their track event (extra_counter_values, for the
 * counter the sequence's defaults name), where a packet of its own would
 * take some 15 bytes.  Packets behind a waiting one on its sequence wait
 * too, so that the sequence's incremental clock and its interned data stay
 * in file order (see perfetto.c). */
#include <stdlib.h>
#include <string.h>

#include "perfetto_state.h"
#include "xalloc.h"

/* The bytes and entries go out from the front: room at the end is made by
 * moving what is left to the start once half of the buffer went out (a
 * byte moved for each added: cheaper than the page faults of a buffer
 * kept larger), else by growing. */
#define HOLD_MOVE(head, cap) ((head) && (head) >= (cap) / 2)

/* A packet's bytes copied 16 at a time, inline (most are 20-150 bytes: a
 * call of memcpy costs more than the copy); up to 15 bytes past the end
 * are written too, inside the room the callers keep (HOLD_SLACK). */
#define HOLD_SLACK 16
static inline void copy16(uint8_t *to, const uint8_t *from, size_t n) {
  for (size_t i = 0; i < n; i += 16) memcpy(to + i, from + i, 16);
}

void pf_hold(pf *p, pf_seq *s, size_t at) {
  pbw *w = &p->w;
  size_t len = w->n - at;
  pbw_need(w, HOLD_SLACK); /* (what copy16 reads past the packet) */
  if (s->hb_n + len + HOLD_SLACK > s->hb_cap) {
    if (HOLD_MOVE(s->hb_head, s->hb_cap)) {
      memmove(s->hb, s->hb + s->hb_head, s->hb_n - s->hb_head);
      s->hb_n -= s->hb_head, s->hb_head = 0;
    }
    if (s->hb_n + len + HOLD_SLACK > s->hb_cap) {
      size_t nc = s->hb_cap ? s->hb_cap * 2 : 4096;
      while (nc < s->hb_n + len + HOLD_SLACK) nc *= 2;
      s->hb = rtg_xrealloc(s->hb, nc, "the Perfetto packets held back");
      s->hb_cap = nc;
    }
  }
  copy16(s->hb + s->hb_n, w->buf + at, len);
  s->hb_n += len;
  w->n = at;
  if (s->he_n == s->he_cap) {
    if (HOLD_MOVE(s->he_head, s->he_cap)) {
      memmove(s->he, s->he + s->he_head, (s->he_n - s->he_head) * sizeof *s->he);
      s->he_base += s->he_head, s->he_n -= s->he_head, s->he_head = 0;
    } else {
      uint32_t nc = s->he_cap ? s->he_cap * 2 : 256;
      s->he = rtg_xrealloc(s->he, nc * sizeof *s->he, "the Perfetto packets held back");
      s->he_cap = nc;
    }
  }
  uint32_t i = s->he_n++;
  s->he[i] = (held){(uint32_t)len, p->hold_wait ? HELD_WAIT : HELD_PLAIN, 0};
  if (p->hold_wait) p->held = held_ref(s->index, s->he_base + i);
}

static const uint8_t *varint_in(const uint8_t *q, const uint8_t *end, uint64_t *v) {
  uint64_t r = 0;
  for (int sh = 0; q < end && sh < 64; sh += 7) {
    uint8_t b = *q++;
    r |= (uint64_t)(b & 0x7f) << sh;
    if (!(b & 0x80)) {
      *v = r;
      return q;
    }
  }
  return NULL;
}

/* A packet (b, n: as pf_pkt_end closed it) into the body with the value
 * added at the end of its track event: the packet's fields before the
 * event, the event longer by the value's field, the fields after it. */
static void put_valued(pf *p, const uint8_t *b, size_t n, int64_t value) {
  const uint8_t *end = b + n, *q = b + 1, *te = NULL, *te_body = NULL;
  uint64_t plen = 0, te_len = 0, key, v;
  q = varint_in(q, end, &plen);
  const uint8_t *body = q;
  while (q && q < end) {
    const uint8_t *f = q;
    if (!(q = varint_in(q, end, &key))) break;
    if ((key & 7) == PBW_VARINT) {
      q = varint_in(q, end, &v);
    } else if ((key & 7) == PBW_LEN) {
      if (!(q = varint_in(q, end, &v))) break;
      if (key >> 3 == PF_PKT_TRACK_EVENT) te = f, te_body = q, te_len = v;
      q += v;
    } else if ((key & 7) == PBW_I64) {
      q += 8;
    } else {
      q += 4;
    }
  }
  pbw *w = &p->w;
  pbw_need(w, n + 32 + HOLD_SLACK);
  if (!te || q != end) { /* (not a packet pf_pkt_end wrote: as it is) */
    copy16(w->buf + w->n, b, n);
    w->n += n;
    return;
  }
  uint64_t add = 1 + pbw_varint_len((uint64_t)value);
  uint64_t nte = te_len + add;
  uint64_t npk = plen + add + pbw_varint_len(nte) - pbw_varint_len(te_len);
  uint8_t *o = w->buf + w->n;
  *o++ = b[0];
  o = pbw_varint_at(o, npk);
  copy16(o, body, (size_t)(te - body));
  o += te - body;
  *o++ = PBW_TAG1(PF_PKT_TRACK_EVENT, PBW_LEN);
  o = pbw_varint_at(o, nte);
  copy16(o, te_body, te_len);
  o += te_len;
  *o++ = PBW_TAG1(PF_TE_EXTRA_COUNTER_VALUES, PBW_VARINT);
  o = pbw_varint_at(o, (uint64_t)value);
  const uint8_t *rest = te_body + te_len;
  copy16(o, rest, (size_t)(end - rest));
  o += end - rest;
  w->n = (size_t)(o - w->buf);
}

void pf_held_resolve(pf *p, uint64_t ref, bool has, int64_t value) {
  pf_seq *s = p->seqs[(ref >> HELD_SERIAL_BITS) - 1];
  held *h = &s->he[(ref & ((1ull << HELD_SERIAL_BITS) - 1)) - s->he_base];
  h->state = has ? HELD_VALUE : HELD_PLAIN;
  h->value = value;
  while (s->he_head < s->he_n && s->he[s->he_head].state != HELD_WAIT) {
    h = &s->he[s->he_head++];
    const uint8_t *b = s->hb + s->hb_head;
    if (h->state == HELD_VALUE) {
      put_valued(p, b, h->len, h->value);
    } else {
      pbw_need(&p->w, h->len + HOLD_SLACK);
      copy16(p->w.buf + p->w.n, b, h->len);
      p->w.n += h->len;
    }
    s->hb_head += h->len;
    if (p->w.n >= BODY_FLUSH) pf_flush_body(p);
  }
  if (s->he_head == s->he_n) {
    s->he_base += s->he_n;
    s->he_head = s->he_n = 0;
    s->hb_head = s->hb_n = 0;
  }
}

/* At the end every change went out, so nothing waits; should a packet
 * still, it goes out without a value rather than be lost. */
void pf_held_finish(pf *p) {
  for (uint32_t i = 0; i < p->nseqs; i++) {
    pf_seq *s = p->seqs[i];
    if (s->he_head == s->he_n) continue;
    for (uint32_t j = s->he_head; j < s->he_n; j++)
      if (s->he[j].state == HELD_WAIT) s->he[j].state = HELD_PLAIN;
    /* (the first waits, else it would have gone out) */
    pf_held_resolve(p, held_ref(s->index, s->he_base + s->he_head), false, 0);
  }
}
