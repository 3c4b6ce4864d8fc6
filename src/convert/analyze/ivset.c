/* Interval sets: see ivset.h. */
#include "ivset.h"
#include "xalloc.h"
#include "sort.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void an_iv_add(an_ivset *set, uint64_t s, uint64_t e) {
  if (e <= s) return;
  if (set->n == set->cap) {
    size_t nc = set->cap ? set->cap * 2 : 16;
    an_iv *nv = rtg_xrealloc(set->v, nc * sizeof *nv, "the analysis's time intervals");
    set->v = nv;
    set->cap = nc;
  }
  set->v[set->n++] = (an_iv){s, e};
}

void an_iv_reserve(an_ivset *set, size_t n) {
  if (n <= set->cap) return;
  set->v = rtg_xrealloc(set->v, n * sizeof *set->v, "the analysis's time intervals");
  set->cap = n;
}

static int by_start(const void *a, const void *b) {
  const an_iv *x = a, *y = b;
  if (x->s != y->s) return x->s < y->s ? -1 : 1;
  return x->e < y->e ? -1 : x->e > y->e;
}

#define RADIX_FROM 1024 /* intervals; fewer are sorted by qsort */

/* Sorts set by start (the union does not depend on the order of equal
 * starts): a radix sort when large. */
static void sort_by_start(an_ivset *set) {
  size_t n = set->n, i = 1;
  while (i < n && set->v[i - 1].s <= set->v[i].s) i++;
  if (i == n) return;
  if (n < RADIX_FROM || n > UINT32_MAX) {
    qsort(set->v, n, sizeof *set->v, by_start);
    return;
  }
  uint64_t *key = rtg_xmalloc(n * sizeof *key, "the analysis's time intervals");
  uint32_t *perm = rtg_xmalloc(n * sizeof *perm, "the analysis's time intervals");
  for (i = 0; i < n; i++) key[i] = set->v[i].s;
  an_order_by_key(key, n, perm);
  free(key);
  an_iv *v = rtg_xmalloc(n * sizeof *v, "the analysis's time intervals");
  for (i = 0; i < n; i++) v[i] = set->v[perm[i]];
  free(perm);
  free(set->v);
  set->v = v;
  set->cap = n;
}

/* The union of set's intervals when they come by end (each GPU op's
 * enqueue to start, the ops by start): from the last back, an interval
 * joins the part being made where it reaches its start, else ends it (no
 * interval before it reaches that part); the parts written from the back
 * of v, then moved to its front. */
static void union_by_end(an_ivset *set) {
  an_iv *v = set->v;
  size_t n = set->n, o = n - 1;
  an_iv cur = v[n - 1];
  for (size_t i = n - 1; i-- > 0;) {
    if (v[i].e >= cur.s) {
      if (v[i].s < cur.s) cur.s = v[i].s;
    } else {
      v[o--] = cur;
      cur = v[i];
    }
  }
  v[o] = cur;
  memmove(v, v + o, (n - o) * sizeof *v);
  set->n = n - o;
}

void an_iv_normalize(an_ivset *set) {
  if (set->n < 2) return;
  size_t i = 1;
  while (i < set->n && set->v[i - 1].s <= set->v[i].s) i++;
  if (i < set->n) { /* not by start: by end? */
    i = 1;
    while (i < set->n && set->v[i - 1].e <= set->v[i].e) i++;
    if (i == set->n) {
      union_by_end(set);
      return;
    }
  }
  sort_by_start(set);
  size_t o = 0;
  for (size_t i = 1; i < set->n; i++) {
    if (set->v[i].s <= set->v[o].e) {
      if (set->v[i].e > set->v[o].e) set->v[o].e = set->v[i].e;
    } else {
      set->v[++o] = set->v[i];
    }
  }
  set->n = o + 1;
}

void an_iv_clip(an_ivset *set, uint64_t lo, uint64_t hi) {
  size_t o = 0;
  for (size_t i = 0; i < set->n; i++) {
    uint64_t s = set->v[i].s < lo ? lo : set->v[i].s, e = set->v[i].e > hi ? hi : set->v[i].e;
    if (s < e) set->v[o++] = (an_iv){s, e};
  }
  set->n = o;
}

uint64_t an_iv_total(const an_ivset *set) {
  uint64_t t = 0;
  for (size_t i = 0; i < set->n; i++) t += set->v[i].e - set->v[i].s;
  return t;
}

void an_iv_subtract(const an_ivset *a, const an_ivset *b, an_ivset *out) {
  an_iv_clear(out);
  an_iv_reserve(out, a->n + b->n); /* (at most: each of b cuts one of a in two) */
  size_t j = 0;
  for (size_t i = 0; i < a->n; i++) {
    uint64_t s = a->v[i].s, e = a->v[i].e;
    while (j < b->n && b->v[j].e <= s) j++;
    for (size_t k = j; k < b->n && b->v[k].s < e; k++) {
      if (b->v[k].s > s) an_iv_add(out, s, b->v[k].s);
      if (b->v[k].e > s) s = b->v[k].e;
      if (s >= e) break;
    }
    an_iv_add(out, s, e);
  }
}

void an_iv_intersect(const an_ivset *a, const an_ivset *b, an_ivset *out) {
  an_iv_clear(out);
  an_iv_reserve(out, a->n + b->n); /* (at most: one a step) */
  size_t i = 0, j = 0;
  while (i < a->n && j < b->n) {
    uint64_t s = a->v[i].s > b->v[j].s ? a->v[i].s : b->v[j].s;
    uint64_t e = a->v[i].e < b->v[j].e ? a->v[i].e : b->v[j].e;
    an_iv_add(out, s, e);
    if (a->v[i].e < b->v[j].e)
      i++;
    else
      j++;
  }
}

void an_iv_clear(an_ivset *set) {
  set->n = 0;
}

void an_iv_free(an_ivset *set) {
  free(set->v);
  memset(set, 0, sizeof *set);
}

void an_iv_move(an_ivset *to, an_ivset *from) {
  free(to->v);
  *to = *from;
  memset(from, 0, sizeof *from);
}
