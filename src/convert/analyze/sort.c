/* an_sort: see sort.h. */
#include "sort.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parts.h"

void an_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *)) {
  const char *p = base;
  size_t i = 1;
  while (i < n && cmp(p + (i - 1) * size, p + i * size) <= 0) i++;
  if (i < n) qsort(base, n, size, cmp);
}

typedef struct keyed {
  uint32_t key;
  size_t index;
} keyed;

static int keyed_order(const void *a, const void *b) {
  const keyed *x = a, *y = b;
  if (x->key != y->key) return x->key < y->key ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

typedef struct gather {
  char *to;
  const char *from;
  size_t size;
  const uint32_t *perm;
} gather;

static void gather_part(void *arg, size_t lo, size_t hi) {
  const gather *g = arg;
  for (size_t i = lo; i < hi; i++)
    memcpy(g->to + i * g->size, g->from + (size_t)g->perm[i] * g->size, g->size);
}

size_t an_apart(void) {
  const char *e = getenv("RTG_ANALYZE_APART");
  return e && *e ? (size_t)strtoull(e, NULL, 10) : (size_t)1 << 16;
}

void an_gather(void *to, const void *from, size_t size, const uint32_t *perm, size_t n) {
  gather g = {to, from, size, perm};
  rtg_parts_run(n, (size_t)1 << 16, 8, gather_part, &g);
}

#define RADIX_BITS 11
#define RADIX (1u << RADIX_BITS)

/* One pass of the radix sort over its digit at shift: the elements from
 * (key[from[i]]) cut in parts of consecutive elements, each part's digits
 * counted, then each part's placed after those of smaller digits and,
 * among equal digits, after those of the parts before it: the order a
 * single stable pass gives. */
typedef struct radix_pass {
  const uint64_t *key;
  const uint32_t *from;
  uint32_t *to;
  uint64_t lo;
  int shift;
  size_t n, nparts;
  size_t (*count)[RADIX]; /* per part */
} radix_pass;

#define RADIX_PARTS 8 /* (from an_apart() elements) */

static size_t digit(const radix_pass *r, uint32_t i) {
  return (size_t)((r->key[i] - r->lo) >> r->shift) & (RADIX - 1);
}

static void radix_count(void *arg, size_t lo, size_t hi) {
  const radix_pass *r = arg;
  for (size_t p = lo; p < hi; p++) {
    size_t *c = r->count[p];
    memset(c, 0, RADIX * sizeof *c);
    for (size_t i = r->n * p / r->nparts; i < r->n * (p + 1) / r->nparts; i++)
      c[digit(r, r->from[i])]++;
  }
}

static void radix_place(void *arg, size_t lo, size_t hi) {
  const radix_pass *r = arg;
  for (size_t p = lo; p < hi; p++) {
    size_t *c = r->count[p];
    for (size_t i = r->n * p / r->nparts; i < r->n * (p + 1) / r->nparts; i++)
      r->to[c[digit(r, r->from[i])]++] = r->from[i];
  }
}

void an_order_by_key(const uint64_t *key, size_t n, uint32_t *perm) {
  if (!n) return;
  uint64_t lo = key[0], hi = key[0];
  for (size_t i = 1; i < n; i++) {
    if (key[i] < lo) lo = key[i];
    if (key[i] > hi) hi = key[i];
  }
  int bits = 0;
  while (bits < 64 && (hi - lo) >> bits) bits++;
  for (size_t i = 0; i < n; i++) perm[i] = (uint32_t)i;
  if (!bits) return;
  size_t nparts = n >= an_apart() ? RADIX_PARTS : 1;
  if (n < nparts) nparts = n;
  uint32_t *tmp = rtg_xmalloc(n * sizeof *tmp, "the analysis's order"), *from = perm, *to = tmp;
  size_t(*count)[RADIX] = rtg_xmalloc(nparts * sizeof *count, "the analysis's order");
  for (int shift = 0; shift < bits; shift += RADIX_BITS) {
    radix_pass r = {key, from, to, lo, shift, n, nparts, count};
    if (nparts > 1)
      rtg_parts_run(nparts, 1, nparts, radix_count, &r);
    else
      radix_count(&r, 0, 1);
    size_t sum = 0;
    for (size_t d = 0; d < RADIX; d++)
      for (size_t p = 0; p < nparts; p++) {
        size_t c = count[p][d];
        count[p][d] = sum;
        sum += c;
      }
    if (nparts > 1)
      rtg_parts_run(nparts, 1, nparts, radix_place, &r);
    else
      radix_place(&r, 0, 1);
    uint32_t *t = from;
    from = to, to = t;
  }
  if (from != perm) memcpy(perm, from, n * sizeof *perm);
  free(tmp);
  free(count);
}

void an_group(void *base, size_t n, size_t size, uint32_t *key) {
  if (n < 2) return;
  uint32_t max = 0;
  for (size_t i = 0; i < n; i++)
    if (key[i] > max) max = key[i];
  size_t *to = rtg_xmalloc(n * sizeof *to, "the analysis\'s groups");
  if (max <= 4 * n + 65536) { /* counting: the place of each element */
    size_t *at = rtg_xcalloc((size_t)max + 2, sizeof *at, "the analysis's groups");
    for (size_t i = 0; i < n; i++) at[key[i] + 1]++;
    for (size_t k = 0; k <= max; k++) at[k + 1] += at[k];
    for (size_t i = 0; i < n; i++) to[i] = at[key[i]]++;
    free(at);
  } else { /* sparse keys: sorted by (key, index) */
    keyed *v = rtg_xmalloc(n * sizeof *v, "the analysis\'s groups");
    for (size_t i = 0; i < n; i++) v[i] = (keyed){key[i], i};
    qsort(v, n, sizeof *v, keyed_order);
    for (size_t i = 0; i < n; i++) to[v[i].index] = i;
    free(v);
  }
  char *tmp = rtg_xmalloc(n * size, "the analysis\'s groups");
  uint32_t *ktmp = rtg_xmalloc(n * sizeof *ktmp, "the analysis\'s groups");
  for (size_t i = 0; i < n; i++) {
    memcpy(tmp + to[i] * size, (char *)base + i * size, size);
    ktmp[to[i]] = key[i];
  }
  memcpy(base, tmp, n * size);
  memcpy(key, ktmp, n * sizeof *key);
  free(tmp), free(ktmp), free(to);
}
