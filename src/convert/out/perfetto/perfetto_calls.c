/* The Perfetto output's API call slices: the function, its arguments and
 * its return value looked up as one.  A program calls the same functions
 * with the same arguments (the same queues, signals, pools) again and
 * again, so the three strings of a call repeat together: one hash over the
 * three and one slot, rather than one of each per string, gives the three
 * iids.  A slot is filled from the per-string tables (perfetto_enc.c), so
 * the iids are those the strings have there; an iid never stands for
 * another string, so a slot stays right after those tables evict them
 * (each iid is defined on a sequence at its first use there).
 *
 * Each producer thread of the reader also numbers the calls it meets, in
 * a dictionary of its own: it compares their strings where it has just
 * parsed them, in its own cache.  The main thread keeps, per (dictionary,
 * number), which filling of the call's slot held it when it last looked
 * the call up; while the slot still holds that filling it writes the call
 * without reading its text, which another core parsed (on the 16-core host
 * that read, a cache miss or more per call, was most of the lookup). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "perfetto_state.h"
#include "strhash.h"
#include "trace_reader.h"
#include "zalloc.h"
#include "xalloc.h"

/* The slot of a call in the cache: hit when it holds the three strings. */
static call_slot *find(pf *p, const char *const s[3], const uint32_t len[3], uint64_t h,
                       bool *hit) {
  call_slot *e = &p->ccache[h & (CCACHE_SLOTS - 1)];
  *hit = e->hash == h && e->len[0] == len[0] && e->len[1] == len[1] && e->len[2] == len[2] &&
         !memcmp(e->text, s[0], len[0]) && !memcmp(e->text + len[0], s[1], len[1]) &&
         !memcmp(e->text + len[0] + len[1], s[2], len[2]);
  return e;
}

static void fill(pf *p, call_slot *e, const char *const s[3], const uint32_t len[3], uint64_t h,
                 const uint64_t iid[3]) {
  size_t total = (size_t)len[0] + len[1] + len[2];
  if (e->cap < total) { /* (room for most calls at once: a slot is filled again and again) */
    size_t cap = total < 256 ? 256 : total;
    char *n = rtg_xrealloc(e->text, cap, "the Perfetto output's cache of calls");
    e->text = n, e->cap = (uint32_t)cap;
  }
  for (int i = 0, off = 0; i < 3; off += (int)len[i], i++) {
    memcpy(e->text + off, s[i], len[i]);
    e->len[i] = len[i], e->iid[i] = iid[i];
  }
  e->hash = h;
  e->fill = ++p->next_fill;
}

/* ------------------------------------------------------------ dictionaries */

#define DICT_MAX (1u << 14) /* calls numbered per dictionary; later ones get none */
#define DICT_MIN_SLOTS 512u /* a dictionary's first table; it doubles when half full */
#define DICT_SEEN 16384u    /* hashes of calls met once, direct-mapped */

/* An entry's text is in the dictionary's arena (one allocation for all,
 * which grows: no allocation per call). */
typedef struct dict_entry {
  uint64_t hash;
  uint32_t len[3];
  uint32_t id;  /* number + 1; 0: empty */
  uint32_t off; /* its text in the arena */
  bool name_only;
} dict_entry;

typedef struct call_dict {
  dict_entry *slot;
  uint64_t *seen; /* calls met once: numbered when met again */
  uint32_t n, cap;
  char *arena;
  size_t narena, cap_arena;
} call_dict;

/* Every producer's dictionary, numbered in the order they were made; gen
 * changes when they are freed, so that a thread's own pointer is then
 * known to be stale (the caller's thread reads chunks itself when no
 * producer could be started). */
static pthread_mutex_t dicts_mu = PTHREAD_MUTEX_INITIALIZER;
static call_dict **dicts;
static uint32_t ndicts, dicts_gen = 1;
static __thread call_dict *my_dict;
static __thread uint32_t my_dict_no, my_dict_gen;

static call_dict *thread_dict(uint32_t *no) {
  if (my_dict && my_dict_gen == __atomic_load_n(&dicts_gen, __ATOMIC_RELAXED)) {
    *no = my_dict_no;
    return my_dict;
  }
  pthread_mutex_lock(&dicts_mu);
  my_dict = NULL;
  call_dict *d = calloc(1, sizeof *d), **nd = realloc(dicts, (ndicts + 1) * sizeof *nd);
  if (nd) dicts = nd;
  if (d) d->slot = calloc(d->cap = DICT_MIN_SLOTS, sizeof *d->slot);
  if (d) d->seen = calloc(DICT_SEEN, sizeof *d->seen);
  if (nd && d && d->slot && d->seen) {
    dicts[ndicts] = d;
    my_dict = d, my_dict_no = ndicts++, my_dict_gen = dicts_gen;
  } else if (d) {
    free(d->slot);
    free(d->seen);
    free(d);
  }
  pthread_mutex_unlock(&dicts_mu);
  *no = my_dict_no;
  return my_dict;
}

/* d's table doubled (false: out of memory, d as it was). */
static bool dict_grow(call_dict *d) {
  uint32_t cap = d->cap * 2;
  dict_entry *t = calloc(cap, sizeof *t);
  if (!t) return false;
  for (uint32_t k = 0; k < d->cap; k++) {
    if (!d->slot[k].id) continue;
    uint32_t i = (uint32_t)d->slot[k].hash & (cap - 1);
    while (t[i].id) i = (i + 1) & (cap - 1);
    t[i] = d->slot[k];
  }
  free(d->slot);
  d->slot = t, d->cap = cap;
  return true;
}

/* The call's number + 1 in d, added when met the second time; 0 when
 * met the first time (most calls met once, with a signal's new value or
 * an index, are met only once: a number would save the main thread
 * nothing, and would cost its text's copy here), or when d is full. */
static uint32_t dict_id(call_dict *d, const char *const s[3], const cv_call_key *key) {
  const uint32_t *len = key->len;
  if ((d->n + 1) * 2 > d->cap && d->n < DICT_MAX && !dict_grow(d)) return 0;
  for (uint32_t i = (uint32_t)key->hash & (d->cap - 1);; i = (i + 1) & (d->cap - 1)) {
    dict_entry *e = &d->slot[i];
    if (!e->id) {
      size_t total = (size_t)len[0] + len[1] + len[2];
      uint64_t *seen = &d->seen[key->hash & (DICT_SEEN - 1)];
      if (*seen != (key->hash | 1)) {
        *seen = key->hash | 1;
        return 0;
      }
      if (d->n == DICT_MAX) return 0;
      if (d->narena + total > d->cap_arena) {
        size_t nc = d->cap_arena ? d->cap_arena * 2 : 65536;
        while (nc < d->narena + total) nc *= 2;
        char *na = nc <= UINT32_MAX ? realloc(d->arena, nc) : NULL;
        if (!na) return 0;
        d->arena = na, d->cap_arena = nc;
      }
      char *t = d->arena + d->narena;
      memcpy(t, s[0], len[0]);
      memcpy(t + len[0], s[1], len[1]);
      memcpy(t + len[0] + len[1], s[2], len[2]);
      e->off = (uint32_t)d->narena;
      d->narena += total;
      e->hash = key->hash, e->len[0] = len[0], e->len[1] = len[1], e->len[2] = len[2];
      e->name_only = key->name_only;
      return e->id = ++d->n;
    }
    const char *t = d->arena + e->off;
    if (e->hash == key->hash && e->name_only == key->name_only && e->len[0] == len[0] &&
        e->len[1] == len[1] && e->len[2] == len[2] && !memcmp(t, s[0], len[0]) &&
        !memcmp(t + len[0], s[1], len[1]) && !memcmp(t + len[0] + len[1], s[2], len[2]))
      return e->id;
  }
}

void pf_dicts_free(void) {
  pthread_mutex_lock(&dicts_mu);
  for (uint32_t i = 0; i < ndicts; i++) {
    free(dicts[i]->arena);
    free(dicts[i]->seen);
    free(dicts[i]->slot);
    free(dicts[i]);
  }
  free(dicts);
  dicts = NULL, ndicts = 0;
  __atomic_store_n(&dicts_gen, dicts_gen + 1, __ATOMIC_RELAXED);
  pthread_mutex_unlock(&dicts_mu);
}

/* Entry id - 1 of dictionary dict - 1 in a table of the main thread's, per
 * dictionary (all zeros at first); NULL when out of memory. */
static uint64_t *known_in(uint64_t ***tab, uint32_t *n, uint32_t dict, uint32_t id) {
  if (dict > *n) {
    uint64_t **t = realloc(*tab, dict * sizeof *t);
    if (!t) return NULL;
    memset(t + *n, 0, (dict - *n) * sizeof *t);
    *tab = t, *n = dict;
  }
  uint64_t **a = &(*tab)[dict - 1];
  if (!*a && !(*a = rtg_zalloc(DICT_MAX, sizeof **a))) return NULL;
  return &(*a)[id - 1];
}

/* Where the main thread keeps the filling of the cache slot that held
 * call id - 1 of dictionary dict - 1 when last looked up (0 at first). */
static uint64_t *known_of(pf *p, uint32_t dict, uint32_t id) {
  return known_in(&p->known, &p->nknown, dict, id);
}

void pf_known_free(pf *p) {
  for (uint32_t i = 0; i < p->nknown; i++) free(p->known[i]);
  free(p->known);
  for (uint32_t i = 0; i < p->nknown_names; i++) free(p->known_names[i]);
  free(p->known_names);
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
  key->name_hash = rtg_str_hash(s[0], key->len[0]);
  key->str_hash[0] = rtg_str_hash(s[1], key->len[1]);
  key->str_hash[1] = rtg_str_hash(s[2], key->len[2]);
  return true;
}

/* On the reader's threads: the key of an API call that host_call
 * (perfetto.c) looks up as one, as it would make it. */
size_t cv_perfetto_prepare(rtg_line *l, size_t used, rtg_line_space *space, void *arg) {
  (void)arg;
  if (l->cls != RTG_LINE_RECORD || l->nul) return used;
  const rtg_record *rec = &l->u.rec;
  const char *s[3];
  bool name_only = false;
  if (l->kind == RTG_KIND_DISPATCH) { /* a kernel's name, as in/trace.c takes it */
    const rtg_rec_DISPATCH *k = &rec->u.DISPATCH;
    bool dem = RTG_HAS(rec, RTG_FIELD(DISPATCH, demangled)) && *k->demangled;
    s[0] = dem ? k->demangled : k->name, s[1] = s[2] = "";
    name_only = true;
  } else if (l->kind == RTG_KIND_HSA_API) {
    s[0] = rec->u.HSA_API.func, s[1] = rec->u.HSA_API.args, s[2] = rec->u.HSA_API.ret;
  } else if (l->kind == RTG_KIND_HIP_API &&
             RTG_HAS(rec, RTG_FIELD(HIP_API, kernel)) != RTG_HAS(rec, RTG_FIELD(HIP_API, args))) {
    /* a call with arguments, or a launch with its kernel (and none) */
    const rtg_rec_HIP_API *h = &rec->u.HIP_API;
    s[0] = h->func, s[1] = RTG_HAS(rec, RTG_FIELD(HIP_API, kernel)) ? h->kernel : h->args;
    s[2] = h->ret;
  } else {
    return used;
  }
  /* (aligned for the key) */
  size_t pad = (size_t)(-(uintptr_t)space->p & (_Alignof(cv_call_key) - 1));
  if (space->left < pad + sizeof(cv_call_key)) return used;
  cv_call_key *key = (cv_call_key *)(space->p + pad);
  if (!call_key(s, key)) return used;
  key->name_only = name_only;
  key->hash ^= name_only; /* (not a call's key) */
  uint32_t no;
  call_dict *d = thread_dict(&no);
  key->id = d ? dict_id(d, s, key) : 0;
  key->dict = key->id ? no + 1 : 0;
  l->prep = (const char *)key;
  l->prep_len = sizeof *key;
  l->prep_mark = 0;
  space->p += pad + sizeof *key;
  space->left -= pad + sizeof *key;
  return used;
}

/* A call's name, category and two annotations, by the iids of its slot,
 * each defined on the packet's sequence from the slot's text if not yet
 * (the text is read only then). */
static void put_call_iids(pf *p, int cat, int an1, const call_slot *e) {
  pbw *w = &p->w;
  call_enc *c = &p->cenc[e - p->ccache];
  if (c->fill == e->fill && c->seq == p->cur->id && c->cat == cat && c->an1 == an1) {
    pbw_need(w, CALL_ENC_MAX);
    memcpy(w->buf + w->n, c->b, CALL_ENC_MAX);
    w->n += c->len;
    return;
  }
  size_t start = w->n;
  uint32_t npend = p->npend;
  bool all_iids = true;
  pf_name_need(p, e->iid[0], e->text, e->len[0]);
  pbw_uint(&p->w, PF_TE_NAME_IID, e->iid[0]);
  pf_put_cat(p, cat);
  for (int i = 1; i < 3; i++) {
    /* (a launch may find the slot of a call with the same three strings) */
    int an = i == 1 ? an1 : AN_ret;
    pf_ann_need(p, an);
    const char *s = e->text + e->len[0] + (i == 2 ? e->len[1] : 0);
    if (!e->iid[i]) { /* a short string: inline, as always */
      size_t m = pf_ann_open(p, an);
      pbw_bytes(&p->w, PF_DA_STRING, s, e->len[i]);
      pbw_close(&p->w, m);
    } else if (pf_string_need(p, e->iid[i], s, e->len[i])) {
      pf_put_ann_varint(p, an, PF_DA_STRING_IID, e->iid[i]);
    } else {
      size_t m = pf_ann_open(p, an);
      pbw_bytes(&p->w, PF_DA_STRING, s, e->len[i]);
      pbw_close(&p->w, m);
      all_iids = false;
    }
  }
  /* nothing newly defined: the same bytes on this sequence from now on */
  if (all_iids && p->npend == npend && w->n - start <= CALL_ENC_MAX && p->cur->id <= UINT16_MAX) {
    memcpy(c->b, w->buf + start, w->n - start);
    c->len = (uint8_t)(w->n - start);
    c->fill = e->fill, c->seq = (uint16_t)p->cur->id, c->cat = (uint8_t)cat, c->an1 = (uint8_t)an1;
  }
}

pkt pf_call_begin(pf *p, const track *t, uint64_t ts, int cat, const char *name, int an1,
                  const char *str1, const char *ret, const cv_call_key *pre) {
  const char *s[3] = {name, str1, ret};
  cv_call_key made = {.dict = 0};
  if (!pre && !call_key(s, &made)) { /* not interned: written as they are */
    pkt k = pf_slice_begin(p, t, ts, name, cat);
    pf_ann_str(p, an1, str1);
    pf_ann_str(p, AN_ret, ret);
    return k;
  }
  const cv_call_key *key = pre ? pre : &made;
  const uint32_t *len = key->len;
  uint64_t h = key->hash;
  call_slot *e = &p->ccache[h & (CCACHE_SLOTS - 1)];
  __builtin_prefetch(e);
  __builtin_prefetch(&p->cenc[h & (CCACHE_SLOTS - 1)]);
  uint64_t *known = key->dict ? known_of(p, key->dict, key->id) : NULL;
  if (!known || !*known) { /* (the lookup will be made: what it reads) */
    pf_string_prefetch(p, key->str_hash[0]);
    pf_string_prefetch(p, key->str_hash[1]);
  }
  pkt k = pf_pkt_begin(p, ts, true, track_uuid(p, t), PF_TYPE_SLICE_BEGIN);
  /* A call its producer numbered, whose slot holds it still (the same
   * filling as when it was last looked up): the lookup would find it, so it
   * is not made (its text, which another core parsed, is not read).
   * Otherwise the lookup is made, exactly: the caches then change as they
   * would without the numbers, and the output does not depend on how the
   * lines were shared among the producers. */
  if (known && *known && *known == e->fill) {
    put_call_iids(p, cat, an1, e);
    return k;
  }
  bool hit;
  e = find(p, s, len, h, &hit);
  if (hit) {
    put_call_iids(p, cat, an1, e);
    if (known) *known = e->fill;
    return k;
  }
  /* what pf_slice_begin and pf_ann_str write, keeping the iids */
  uint64_t iid[3];
  iid[0] = pf_name_iid_h(p, name, len[0], key->name_hash);
  if (iid[0])
    pbw_uint(&p->w, PF_TE_NAME_IID, iid[0]);
  else
    pbw_str(&p->w, PF_TE_NAME, name);
  pf_put_cat(p, cat);
  for (int i = 1; i < 3; i++) {
    int an = i == 1 ? an1 : AN_ret;
    pf_ann_need(p, an);
    iid[i] = pf_string_iid_h(p, s[i], len[i], key->str_hash[i - 1]);
    if (iid[i]) {
      pf_put_ann_varint(p, an, PF_DA_STRING_IID, iid[i]);
    } else { /* inline: met for the first time, or no room for more interned data */
      size_t m = pf_ann_open(p, an);
      pbw_bytes(&p->w, PF_DA_STRING, s[i], len[i]);
      pbw_close(&p->w, m);
    }
  }
  if (iid[0] && (iid[1] || pf_string_short(len[1])) && (iid[2] || pf_string_short(len[2]))) {
    fill(p, e, s, len, h, iid);
    if (known) *known = e->fill;
  }
  return k;
}

/* Names are interned in a table that keeps them all (perfetto_enc.c: its
 * cache in front changes no output), so a name's iid, once known, is
 * written as it is. */
pkt pf_kernel_begin(pf *p, const track *t, uint64_t ts, const char *name, int cat,
                    const cv_call_key *key) {
  uint64_t *known = key && key->dict && key->name_only
                        ? known_in(&p->known_names, &p->nknown_names, key->dict, key->id)
                        : NULL;
  if (!known) return pf_slice_begin(p, t, ts, name, cat);
  pkt k = pf_pkt_begin(p, ts, true, track_uuid(p, t), PF_TYPE_SLICE_BEGIN);
  if (!*known)
    *known = pf_name_iid_h(p, name, key->len[0], key->name_hash);
  else
    pf_name_need(p, *known, name, key->len[0]);
  if (*known)
    pbw_uint(&p->w, PF_TE_NAME_IID, *known);
  else
    pbw_str(&p->w, PF_TE_NAME, name);
  pf_put_cat(p, cat);
  return k;
}

void pf_cc_free(call_slot *c) {
  for (uint32_t i = 0; c && i < CCACHE_SLOTS; i++) free(c[i].text);
  free(c);
}
