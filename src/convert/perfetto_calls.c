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
#include "trace_reader.h"

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

/* The key of a call: false when a string is too long to intern. */
static bool call_key(const char *const s[3], cv_call_key *key) {
  rtg_strhash st;
  rtg_strhash_init(&st);
  for (int i = 0; i < 3; i++) {
    size_t n = strlen(s[i]);
    if (n >= SCACHE_LEN) return false;
    key->len[i] = (uint32_t)n;
    rtg_strhash_add(&st, s[i], n);
  }
  key->hash = rtg_strhash_end(&st);
  return true;
}

/* On the reader's threads: the key of an API call that host_call
 * (perfetto.c) looks up as one, as it would make it. */
size_t cv_perfetto_prepare(rtg_line *l, size_t used, rtg_line_space *space, void *arg) {
  (void)arg;
  if (l->cls != RTG_LINE_RECORD || l->nul) return used;
  const rtg_record *rec = &l->u.rec;
  const char *s[3];
  if (l->kind == RTG_KIND_HSA_API) {
    s[0] = rec->u.HSA_API.func, s[1] = rec->u.HSA_API.args, s[2] = rec->u.HSA_API.ret;
  } else if (l->kind == RTG_KIND_HIP_API && !RTG_HAS(rec, RTG_FIELD(HIP_API, kernel)) &&
             RTG_HAS(rec, RTG_FIELD(HIP_API, args))) {
    s[0] = rec->u.HIP_API.func, s[1] = rec->u.HIP_API.args, s[2] = rec->u.HIP_API.ret;
  } else {
    return used;
  }
  /* (aligned for the key) */
  size_t pad = (size_t)(-(uintptr_t)space->p & (_Alignof(cv_call_key) - 1));
  if (space->left < pad + sizeof(cv_call_key)) return used;
  cv_call_key *key = (cv_call_key *)(space->p + pad);
  if (!call_key(s, key)) return used;
  l->prep = (const char *)key;
  l->prep_len = sizeof *key;
  l->prep_mark = 0;
  space->p += pad + sizeof *key;
  space->left -= pad + sizeof *key;
  return used;
}

pkt pf_call_begin(pf *p, const track *t, uint64_t ts, int cat, const char *name, const char *args,
                  const char *ret, const cv_call_key *pre) {
  const char *s[3] = {name, args, ret};
  cv_call_key made;
  if (!pre && !call_key(s, &made)) { /* not interned: written as they are */
    pkt k = pf_slice_begin(p, t, ts, name, cat);
    pf_ann_str(p, AN_args, args);
    pf_ann_str(p, AN_ret, ret);
    return k;
  }
  const cv_call_key *key = pre ? pre : &made;
  const uint32_t *len = key->len;
  uint64_t h = key->hash;
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
