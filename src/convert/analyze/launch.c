/* Launch decomposition: see launch.h. */
#include "launch.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Moves the k-th smallest of v[0..n) to v[k], smaller ones before it and
 * larger ones after (quickselect, median of three). */
static void select_k(uint64_t *v, uint64_t n, uint64_t k) {
  uint64_t lo = 0, hi = n - 1;
  while (hi > lo) {
    uint64_t mid = lo + (hi - lo) / 2, a = v[lo], b = v[mid], c = v[hi];
    uint64_t pivot = a < b ? (b < c ? b : a < c ? c : a) : (a < c ? a : b < c ? c : b);
    uint64_t i = lo, j = hi;
    while (i <= j) {
      while (v[i] < pivot) i++;
      while (v[j] > pivot) j--;
      if (i <= j) {
        uint64_t t = v[i];
        v[i] = v[j], v[j] = t;
        i++;
        if (j == 0) break;
        j--;
      }
    }
    if (k <= j)
      hi = j;
    else if (k >= i)
      lo = i;
    else
      return;
  }
}

/* the nearest-rank percentile q (1..100) of v[0..n): its index */
static uint64_t rank(uint64_t n, unsigned q) {
  uint64_t i = (q * n + 99) / 100;
  return i ? i - 1 : 0;
}

/* v is reordered */
static void dist(uint64_t *v, uint64_t n, an_dist *d) {
  memset(d, 0, sizeof *d);
  if (!n) return;
  d->n = n;
  for (uint64_t i = 0; i < n; i++) {
    d->total += v[i];
    if (v[i] > d->max) d->max = v[i];
  }
  uint64_t m = rank(n, 50), p = rank(n, 95);
  select_k(v, n, p);
  d->p95 = v[p];
  select_k(v, p + 1, m); /* the smaller ones are before p */
  d->median = v[m];
}

static bool api_known(const an_op *op) {
  return op->api_e > op->api_s;
}

static bool queue_known(const an_op *op) {
  return op->enq && op->start >= op->enq;
}

static uint32_t key_of(const an_op *op, bool queue) {
  return queue ? op->queue : op->name;
}

/* k regrouped by key (the queue or the name), each group in k's order: a
 * counting sort, keys being small dense ids. */
static void group(const an_op **k, size_t n, bool queue, const an_op **tmp) {
  uint32_t max = 0;
  for (size_t i = 0; i < n; i++)
    if (key_of(k[i], queue) > max) max = key_of(k[i], queue);
  if (max == UINT32_MAX) max--; /* AN_NO_QUEUE (copies are not here) */
  size_t *at = rtg_xcalloc((size_t)max + 2, sizeof *at, "the launch decomposition");
  for (size_t i = 0; i < n; i++) at[key_of(k[i], queue) + 1]++;
  for (size_t x = 0; x <= max; x++) at[x + 1] += at[x];
  for (size_t i = 0; i < n; i++) tmp[at[key_of(k[i], queue)]++] = k[i];
  memcpy(k, tmp, n * sizeof *k);
  free(at);
}

static int by_total(const void *a, const void *b) {
  const an_launch_row *x = a, *y = b;
  if (x->kernel.total != y->kernel.total) return x->kernel.total > y->kernel.total ? -1 : 1;
  return x->key < y->key ? -1 : x->key > y->key;
}

/* One row per run of equal keys in k (sorted by key). */
static an_launch_row *rows(const an_op **k, size_t n, bool queue, size_t *nrows,
                           uint64_t *scratch) {
  an_launch_row *r = rtg_xcalloc(n, sizeof *r, "the launch decomposition");
  size_t nr = 0;
  for (size_t i = 0; i < n;) {
    uint32_t key = queue ? k[i]->queue : k[i]->name;
    size_t j = i;
    while (j < n && (queue ? k[j]->queue : k[j]->name) == key) j++;
    an_launch_row *row = &r[nr++];
    row->key = key;
    row->count = j - i;
    uint64_t m = 0;
    for (size_t x = i; x < j; x++)
      if (api_known(k[x])) scratch[m++] = k[x]->api_e - k[x]->api_s;
    dist(scratch, m, &row->api);
    m = 0;
    for (size_t x = i; x < j; x++)
      if (queue_known(k[x])) scratch[m++] = k[x]->start - k[x]->enq;
    dist(scratch, m, &row->queue);
    m = 0;
    for (size_t x = i; x < j; x++) {
      scratch[m++] = k[x]->end - k[x]->start;
      if (api_known(k[x]) && k[x]->end - k[x]->start < k[x]->api_e - k[x]->api_s)
        row->launch_bound++;
    }
    dist(scratch, m, &row->kernel);
    i = j;
  }
  *nrows = nr;
  return r;
}

static void add_outlier(an_launch *l, const an_op *op) {
  an_outlier o = {.start = op->start,
                  .queue_ns = op->start - op->enq,
                  .tid = op->tid,
                  .name = op->name,
                  .queue = op->queue};
  l->outliers++;
  l->outlier_ns += o.queue_ns;
  int n = l->noutliers;
  if (n == AN_MAX_OUTLIERS && l->outlier[n - 1].queue_ns >= o.queue_ns) return;
  if (n < AN_MAX_OUTLIERS) l->noutliers = ++n;
  int i = n - 1;
  for (; i > 0 && l->outlier[i - 1].queue_ns < o.queue_ns; i--) l->outlier[i] = l->outlier[i - 1];
  l->outlier[i] = o;
}

void an_launch_compute(const an_op *ops, size_t n, an_launch *out) {
  memset(out, 0, sizeof *out);
  const an_op **k = rtg_xcalloc(n, sizeof *k, "the launch decomposition");
  uint64_t *scratch = rtg_xcalloc(n, sizeof *scratch, "the launch decomposition");
  size_t nk = 0;
  for (size_t i = 0; i < n; i++)
    if (ops[i].kind == AN_OP_KERNEL) k[nk++] = &ops[i];
  out->kernels = nk;

  const an_op **tmp = rtg_xcalloc(nk, sizeof *tmp, "the launch decomposition");
  group(k, nk, true, tmp);
  out->by_queue = rows(k, nk, true, &out->nqueue, scratch);
  for (size_t i = 0, q = 0; i < nk; i++) {
    while (out->by_queue[q].key != k[i]->queue) q++;
    uint64_t limit = out->by_queue[q].queue.median * AN_OUTLIER_FACTOR;
    if (limit < AN_OUTLIER_MIN_NS) limit = AN_OUTLIER_MIN_NS;
    if (queue_known(k[i]) && k[i]->start - k[i]->enq > limit) add_outlier(out, k[i]);
  }

  group(k, nk, false, tmp);
  free(tmp);
  out->by_name = rows(k, nk, false, &out->nname, scratch);
  qsort(out->by_name, out->nname, sizeof *out->by_name, by_total);
  for (size_t i = 0; i < out->nname; i++) out->launch_bound += out->by_name[i].launch_bound;
  free(k);
  free(scratch);
}

void an_launch_free(an_launch *l) {
  free(l->by_name);
  free(l->by_queue);
  memset(l, 0, sizeof *l);
}
