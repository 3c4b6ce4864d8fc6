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
  uint32_t *tmp = rtg_xmalloc(n * sizeof *tmp, "the analysis's order"), *from = perm, *to = tmp;
  size_t *count = rtg_xmalloc(RADIX * sizeof *count, "the analysis's order");
  for (int shift = 0; shift < bits; shift += RADIX_BITS) {
    memset(count, 0, RADIX * sizeof *count);
    for (size_t i = 0; i < n; i++) count[((key[from[i]] - lo) >> shift) & (RADIX - 1)]++;
    size_t sum = 0;
    for (size_t d = 0; d < RADIX; d++) {
      size_t c = count[d];
      count[d] = sum;
      sum += c;
    }
    for (size_t i = 0; i < n; i++)
      to[count[((key[from[i]] - lo) >> shift) & (RADIX - 1)]++] = from[i];
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
