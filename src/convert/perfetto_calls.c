/* The Perfetto output's API call slices: the function, its arguments and
 * its return value looked up as one.  A program calls the same functions
 * with the same arguments (the same queues, signals, pools) again and
 * again, so the three strings of a call repeat together: one hash over the
 * three and one slot, rather than one of each per string, gives the three
 * iids.  A slot is filled from the per-string tables (perfetto_enc.c), so
 * the iids are those the strings have there; iids are never redefined on
 * the sequence, so a slot stays right after those tables evict them. */
#include <stdlib.h>
#include <string.h>

#include "perfetto_state.h"
#include "strhash.h"

/* The slot of a call in the cache: hit when it holds the three strings. */
static call_slot *find(pf *p, const char *const s[3], const uint32_t len[3], uint64_t h,
                       bool *hit) {
  call_slot *e = &p->ccache[h & (CCACHE_SLOTS - 1)];
  *hit = e->hash == h && e->len[0] == len[0] && e->len[1] == len[1] && e->len[2] == len[2] &&
         !memcmp(e->text, s[0], len[0]) && !memcmp(e->text + len[0], s[1], len[1]) &&
         !memcmp(e->text + len[0] + len[1], s[2], len[2]);
  return e;
}

static void fill(call_slot *e, const char *const s[3], const uint32_t len[3], uint64_t h,
                 const uint64_t iid[3]) {
  size_t total = (size_t)len[0] + len[1] + len[2];
  if (e->cap < total) {
    char *n = realloc(e->text, total);
    if (!n) exit(1);
    e->text = n, e->cap = (uint32_t)total;
  }
  for (int i = 0, off = 0; i < 3; off += (int)len[i], i++) {
    memcpy(e->text + off, s[i], len[i]);
    e->len[i] = len[i], e->iid[i] = iid[i];
  }
  e->hash = h;
}

pkt pf_call_begin(pf *p, const track *t, uint64_t ts, int cat, const char *name, const char *args,
                  const char *ret) {
  const char *s[3] = {name, args, ret};
  uint32_t len[3];
  rtg_strhash st;
  rtg_strhash_init(&st);
  for (int i = 0; i < 3; i++) {
    size_t n = strlen(s[i]);
    if (n >= SCACHE_LEN) { /* not interned: written as they are */
      pkt k = pf_slice_begin(p, t, ts, name, cat);
      pf_ann_str(p, AN_args, args);
      pf_ann_str(p, AN_ret, ret);
      return k;
    }
    len[i] = (uint32_t)n;
    rtg_strhash_add(&st, s[i], n);
  }
  uint64_t h = rtg_strhash_end(&st);
  bool hit;
  call_slot *e = find(p, s, len, h, &hit);
  pkt k = pf_pkt_begin(p, ts, true, track_uuid(p, t), PF_TYPE_SLICE_BEGIN);
  if (hit) {
    pbw_uint(&p->w, PF_TE_NAME_IID, e->iid[0]);
    pf_put_cat(p, cat);
    pf_put_ann_varint(p, AN_args, PF_DA_STRING_IID, e->iid[1]);
    pf_put_ann_varint(p, AN_ret, PF_DA_STRING_IID, e->iid[2]);
    return k;
  }
  /* what pf_slice_begin and pf_ann_str write, keeping the iids */
  uint64_t iid[3];
  iid[0] = pf_name_iid(p, name, len[0]);
  if (iid[0])
    pbw_uint(&p->w, PF_TE_NAME_IID, iid[0]);
  else
    pbw_str(&p->w, PF_TE_NAME, name);
  pf_put_cat(p, cat);
  for (int i = 1; i < 3; i++) {
    int an = i == 1 ? AN_args : AN_ret;
    if (!p->ann_done[an]) pf_ann_define(p, an);
    iid[i] = pf_string_iid(p, s[i], len[i]);
    if (iid[i])
      pf_put_ann_varint(p, an, PF_DA_STRING_IID, iid[i]);
    else
      pf_ann_str(p, an, s[i]); /* (inline: no room for more interned data) */
  }
  if (iid[0] && iid[1] && iid[2]) fill(e, s, len, h, iid);
  return k;
}

void pf_cc_free(call_slot *c) {
  for (uint32_t i = 0; c && i < CCACHE_SLOTS; i++) free(c[i].text);
  free(c);
}
