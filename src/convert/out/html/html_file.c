/* The timeline's events filed into their tracks (html.h): what the report
 * keeps of each, 24 bytes, its name and arguments by id. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "shared/names.h"

static ht_track *track_of(ht_state *h, uint32_t proc, uint8_t kind, uint64_t key) {
  ht_track *l = h->recent[kind];
  if (l && l->proc == proc && l->key == key) return l;
  h->recent[kind] = NULL; /* (the array may move) */
  uint64_t hk = rtg_mix64(rtg_mix64((uint64_t)proc << 8 | kind) ^ key);
  for (;; hk++) {
    bool added;
    uint64_t *v = rtg_u64map_put(&h->track_index, hk, 0, &added);
    if (!v) oom();
    if (*v) {
      ht_track *t = &h->t[*v - 1];
      if (t->proc == proc && t->kind == kind && t->key == key) return h->recent[kind] = t;
      continue; /* another track's hash: the next key */
    }
    if (h->nt == h->cap) {
      h->cap = h->cap ? h->cap * 2 : 16;
      ht_track *nt = realloc(h->t, h->cap * sizeof *nt);
      if (!nt) oom();
      h->t = nt;
    }
    h->t[h->nt] = (ht_track){.proc = proc, .kind = kind, .key = key};
    *v = ++h->nt;
    for (int k = 0; k < HT_NKINDS; k++) h->recent[k] = NULL;
    return h->recent[kind] = &h->t[h->nt - 1];
  }
}

uint32_t ht_name_id(ht_state *h, const char *s) {
  if (!s) s = "";
  size_t n = strlen(s);
  cv_cached *c = &h->names_cache[cv_cache_slot(s, n)];
  if (c->s && c->len == n && !memcmp(c->s, s, n)) return c->id;
  uint32_t id = rtg_strtab_intern(h->names, s, n);
  if (id == UINT32_MAX) oom();
  *c = (cv_cached){rtg_strtab_get(h->names, id), (uint32_t)n, id};
  return id;
}

static uint32_t args_id(ht_state *h, const char *s) {
  if (!s || !*s) return UINT32_MAX;
  size_t n = strlen(s);
  cv_cached *c = &h->args_cache[cv_cache_slot(s, n)];
  if (c->s && c->len == n && !memcmp(c->s, s, n)) return c->id;
  uint32_t id;
  if (rtg_strtab_bytes(h->args) + n > h->args_budget) {
    id = rtg_strtab_find(h->args, s, n);
    if (id == UINT32_MAX) h->args_dropped++;
  } else
    id = rtg_strtab_intern(h->args, s, n);
  if (id != UINT32_MAX) *c = (cv_cached){rtg_strtab_get(h->args, id), (uint32_t)n, id};
  return id;
}

/* "grid {x,y,z} workgroup {x,y,z}" without printf (which is slow) */
static char *put_u32(char *p, uint32_t v) {
  char t[10];
  int n = 0;
  do t[n++] = (char)('0' + v % 10);
  while ((v /= 10));
  while (n) *p++ = t[--n];
  return p;
}

static const char *dims(char *buf, const uint32_t v[6]) {
  char *p = buf;
  memcpy(p, "grid {", 6), p += 6;
  for (int i = 0; i < 6; i++) {
    p = put_u32(p, v[i]);
    if (i == 2)
      memcpy(p, "} workgroup {", 13), p += 13;
    else
      *p++ = i == 5 ? '}' : ',';
  }
  *p = 0;
  return buf;
}

/* A kernel's dimensions' text by id, made once for each (a memo). */
static uint32_t dims_id(ht_state *h, const uint32_t v[6]) {
  uint64_t k = rtg_mix64((uint64_t)v[0] << 32 ^ v[1] ^ (uint64_t)v[2] << 21) ^
               rtg_mix64((uint64_t)v[3] << 32 ^ v[4] ^ (uint64_t)v[5] << 21);
  ht_dims_memo *m = &h->dims_memo[k % HT_DIMS_MEMO];
  if (m->id1 && !memcmp(m->v, v, sizeof m->v)) return m->id1 - 1;
  char buf[160];
  uint32_t id = args_id(h, dims(buf, v));
  if (id != UINT32_MAX) { /* (one not kept is counted each time, as args_id does) */
    memcpy(m->v, v, sizeof m->v);
    m->id1 = id + 1;
  }
  return id;
}

void ht_file(ht_state *h, const ht_in *in) {
  char nbuf[256], abuf[160];
  const char *name = in->name;
  if (in->copy_name) { /* as the other outputs name a copy */
    cv_event e = {.name = in->name, .bytes = in->bytes, .has_bytes = in->has_bytes};
    name = cv_copy_name(&e, nbuf, sizeof nbuf);
  }
  uint32_t args;
  if (in->args_how == HT_ARGS_DIMS)
    args = dims_id(h, in->v);
  else if (in->args_how == HT_ARGS_AGENTS) {
    snprintf(abuf, sizeof abuf, "agents %u -> %u", in->v[0], in->v[1]);
    args = args_id(h, abuf);
  } else
    args = args_id(h, in->args);
  ht_track *t = track_of(h, in->proc, in->kind, in->key);
  if (t->n == t->cap) {
    t->cap = t->cap ? t->cap * 2 : 256;
    ht_ev *nv = realloc(t->v, t->cap * sizeof *nv);
    if (!nv) oom();
    t->v = nv;
  }
  uint64_t start = in->start, end = in->end > start ? in->end : start;
  if (t->n && start < t->v[t->n - 1].start) t->unsorted = true;
  uint32_t nid = ht_name_id(h, name);
  if (nid > h->max_name) h->max_name = nid;
  t->v[t->n++] = (ht_ev){start, end, nid, args};
  if (end - start > t->maxdur) t->maxdur = end - start;
  if (!h->nev || start < h->first) h->first = start;
  if (end > h->last) h->last = end;
  h->nev++;
}
