/* Launch decomposition: see launch.h. */
#include "launch.h"
#include "sort.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parts.h"

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

static int by_total(const void *a, const void *b) {
  const an_launch_row *x = a, *y = b;
  if (x->kernel.total != y->kernel.total) return x->kernel.total > y->kernel.total ? -1 : 1;
  return x->key < y->key ? -1 : x->key > y->key;
}

/* The rows' three distributions (api, queue, kernel) of k's runs of
 * equal keys: row i's kernels are k[from[i] .. from[i + 1]); items
 * 3 i + 0, 1, 2 are its api, queue and kernel distributions (and its
 * launch-bound kernels with the last), each written by its item alone. */
typedef struct rows_job {
  const an_op **k;
  an_launch_row *r;
  const size_t *from;
} rows_job;

static void dist_item(const rows_job *j, size_t item, uint64_t *scratch) {
  an_launch_row *row = &j->r[item / 3];
  const an_op **k = j->k;
  size_t i = j->from[item / 3], e = j->from[item / 3 + 1];
  uint64_t m = 0;
  switch (item % 3) {
  case 0:
    for (size_t x = i; x < e; x++)
      if (api_known(k[x])) scratch[m++] = k[x]->api_e - k[x]->api_s;
    dist(scratch, m, &row->api);
    break;
  case 1:
    for (size_t x = i; x < e; x++)
      if (queue_known(k[x])) scratch[m++] = k[x]->start - k[x]->enq;
    dist(scratch, m, &row->queue);
    break;
  default:
    for (size_t x = i; x < e; x++) {
      scratch[m++] = k[x]->end - k[x]->start;
      if (api_known(k[x]) && k[x]->end - k[x]->start < k[x]->api_e - k[x]->api_s)
        row->launch_bound++;
    }
    dist(scratch, m, &row->kernel);
  }
}

static void rows_part(void *arg, size_t lo, size_t hi) {
  const rows_job *j = arg;
  size_t most = 0;
  for (size_t it = lo; it < hi; it++)
    if (j->from[it / 3 + 1] - j->from[it / 3] > most) most = j->from[it / 3 + 1] - j->from[it / 3];
  uint64_t *scratch = rtg_xmalloc((most + 1) * sizeof *scratch, "the launch decomposition");
  for (size_t it = lo; it < hi; it++) dist_item(j, it, scratch);
  free(scratch);
}

/* One row per run of equal keys in k (sorted by key); the rows'
 * distributions side by side for a large GPU (from RTG_ANALYZE_APART
 * kernels). */
static an_launch_row *rows(const an_op **k, size_t n, bool queue, size_t *nrows) {
  an_launch_row *r = rtg_xcalloc(n, sizeof *r, "the launch decomposition");
  size_t *from = rtg_xmalloc((n + 2) * sizeof *from, "the launch decomposition");
  size_t nr = 0;
  for (size_t i = 0; i < n;) {
    uint32_t key = key_of(k[i], queue);
    size_t j = i;
    while (j < n && key_of(k[j], queue) == key) j++;
    r[nr].key = key;
    r[nr].count = j - i;
    from[nr++] = i;
    i = j;
  }
  from[nr] = n;
  rows_job job = {k, r, from};
  if (n >= an_apart())
    rtg_parts_run(3 * nr, 1, 8, rows_part, &job);
  else
    rows_part(&job, 0, 3 * nr);
  free(from);
  *nrows = nr;
  return r;
}

/* k regrouped by its kernels' queue or name (an_group: each group keeps
 * k's order). */
static void group(const an_op **k, size_t n, bool queue, uint32_t *key) {
  for (size_t i = 0; i < n; i++) key[i] = key_of(k[i], queue);
  an_group(k, n, sizeof *k, key);
}

void an_launch_part(const an_op *ops, size_t n, an_launch *out, bool by_name) {
  const an_op **k = rtg_xcalloc(n, sizeof *k, "the launch decomposition");
  size_t nk = 0;
  for (size_t i = 0; i < n; i++)
    if (ops[i].kind == AN_OP_KERNEL) k[nk++] = &ops[i];
  uint32_t *key = rtg_xcalloc(nk, sizeof *key, "the launch decomposition");
  group(k, nk, !by_name, key);
  free(key);
  if (!by_name) {
    out->kernels = nk;
    out->by_queue = rows(k, nk, true, &out->nqueue);
  } else {
    out->by_name = rows(k, nk, false, &out->nname);
    qsort(out->by_name, out->nname, sizeof *out->by_name, by_total);
    out->launch_bound = 0;
    for (size_t i = 0; i < out->nname; i++) out->launch_bound += out->by_name[i].launch_bound;
  }
  free(k);
}

void an_launch_compute(const an_op *ops, size_t n, an_launch *out) {
  memset(out, 0, sizeof *out);
  an_launch_part(ops, n, out, false);
  an_launch_part(ops, n, out, true);
}

const an_launch_row *an_launch_queue(const an_launch *l, uint32_t queue) {
  size_t lo = 0, hi = l->nqueue;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (l->by_queue[mid].key < queue)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < l->nqueue && l->by_queue[lo].key == queue ? &l->by_queue[lo] : NULL;
}

void an_launch_free(an_launch *l) {
  free(l->by_name);
  free(l->by_queue);
  memset(l, 0, sizeof *l);
}
