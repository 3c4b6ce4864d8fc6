/* Launch decomposition: see launch.h. */
#include "launch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *xcalloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size);
  if (!p) {
    fprintf(stderr, "rtg-convert: out of memory (%zu x %zu bytes for --analyze)\n", n, size);
    exit(1);
  }
  return p;
}

static int u64_order(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* the nearest-rank percentile q (1..100) of sorted v[0..n) */
static uint64_t rank(const uint64_t *v, uint64_t n, unsigned q) {
  uint64_t i = (q * n + 99) / 100;
  return v[i ? i - 1 : 0];
}

static void dist(uint64_t *v, uint64_t n, an_dist *d) {
  memset(d, 0, sizeof *d);
  if (!n) return;
  qsort(v, n, sizeof *v, u64_order);
  d->n = n;
  d->median = rank(v, n, 50);
  d->p95 = rank(v, n, 95);
  d->max = v[n - 1];
  for (uint64_t i = 0; i < n; i++) d->total += v[i];
}

static bool api_known(const an_op *op) {
  return op->api_e > op->api_s;
}

static bool queue_known(const an_op *op) {
  return op->enq && op->start >= op->enq;
}

static int by_name(const void *a, const void *b) {
  const an_op *x = *(const an_op *const *)a, *y = *(const an_op *const *)b;
  return x->name < y->name ? -1 : x->name > y->name;
}

static int by_queue(const void *a, const void *b) {
  const an_op *x = *(const an_op *const *)a, *y = *(const an_op *const *)b;
  return x->queue < y->queue ? -1 : x->queue > y->queue;
}

static int by_total(const void *a, const void *b) {
  const an_launch_row *x = a, *y = b;
  if (x->kernel.total != y->kernel.total) return x->kernel.total > y->kernel.total ? -1 : 1;
  return x->key < y->key ? -1 : x->key > y->key;
}

/* One row per run of equal keys in k (sorted by key). */
static an_launch_row *rows(const an_op **k, size_t n, bool queue, size_t *nrows,
                           uint64_t *scratch) {
  an_launch_row *r = xcalloc(n, sizeof *r);
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
  const an_op **k = xcalloc(n, sizeof *k);
  uint64_t *scratch = xcalloc(n, sizeof *scratch);
  size_t nk = 0;
  for (size_t i = 0; i < n; i++)
    if (ops[i].kind == AN_OP_KERNEL) k[nk++] = &ops[i];
  out->kernels = nk;

  qsort(k, nk, sizeof *k, by_queue);
  out->by_queue = rows(k, nk, true, &out->nqueue, scratch);
  for (size_t i = 0, q = 0; i < nk; i++) {
    while (out->by_queue[q].key != k[i]->queue) q++;
    uint64_t limit = out->by_queue[q].queue.median * AN_OUTLIER_FACTOR;
    if (limit < AN_OUTLIER_MIN_NS) limit = AN_OUTLIER_MIN_NS;
    if (queue_known(k[i]) && k[i]->start - k[i]->enq > limit) add_outlier(out, k[i]);
  }

  qsort(k, nk, sizeof *k, by_name);
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
