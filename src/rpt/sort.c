/* Start-time order of the records.  Logs are written in completion order,
 * which is nearly start order: a command is out of place by about as many
 * positions as commands ran beside it.  So an insertion sort is tried
 * first (one pass plus the short moves); if the input turns out far from
 * sorted it gives up and a natural merge sort (merging the runs that are
 * already sorted) does the job in O(n log runs).  Commands that start in
 * the same nanosecond are ordered by device, queue and sequence number, so
 * the order does not depend on which thread of a tracer wrote its line
 * first (a barrier and the kernel behind it often share a start time); on
 * one queue that is also the original's tie order (the log's order). */
#include "diag.h"
#include "rpt.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

static bool before(const rpt_rec *x, const rpt_rec *y) {
  if (x->start != y->start) return x->start < y->start;
  if (x->device != y->device) return x->device < y->device; /* (the number as shown) */
  if (x->queue != y->queue) return x->queue < y->queue;
  if (x->seq != y->seq) return x->seq < y->seq;
  return x->devclass < y->devclass;
}

/* Merge sorted a[lo..mid) and a[mid..hi) through tmp. */
static void merge(uint32_t *a, uint32_t *tmp, size_t lo, size_t mid, size_t hi, const rpt_rec *r) {
  if (!before(&r[a[mid]], &r[a[mid - 1]])) return; /* already in order */
  memcpy(tmp + lo, a + lo, (mid - lo) * sizeof *a);
  size_t i = lo, j = mid, k = lo;
  while (i < mid && j < hi) a[k++] = before(&r[a[j]], &r[tmp[i]]) ? a[j++] : tmp[i++];
  while (i < mid) a[k++] = tmp[i++];
}

/* Insertion sort of a[0..n) by start; false (a left a permutation) when
 * the moves exceed the budget. */
static bool insertion(uint32_t *a, size_t n, const rpt_rec *r, uint64_t budget) {
  uint64_t moves = 0;
  for (size_t i = 1; i < n; i++) {
    uint32_t x = a[i];
    if (!before(&r[x], &r[a[i - 1]])) continue;
    size_t j = i;
    while (j > 0 && before(&r[x], &r[a[j - 1]])) {
      a[j] = a[j - 1];
      j--;
    }
    a[j] = x;
    moves += i - j;
    if (moves > budget) return false;
  }
  return true;
}

uint32_t *rpt_sort(const rpt_data *d) {
  size_t n = d->n;
  uint32_t *a = rtg_xmalloc((n ? n : 1) * sizeof *a, "the order of the records");
  for (size_t i = 0; i < n; i++) a[i] = (uint32_t)i;
  const rpt_rec *r = d->recs;
  if (insertion(a, n, r, 16 * (uint64_t)n + 4096)) return a;
  for (size_t i = 0; i < n; i++) a[i] = (uint32_t)i; /* start over */

  /* Run boundaries: run i is [runs[i], runs[i+1]). */
  size_t nruns = 0, cap = 64;
  size_t *runs = rtg_xmalloc(cap * sizeof *runs, "the sorted runs of the records");
  for (size_t i = 0; i < n; i++) {
    if (i == 0 || before(&r[i], &r[i - 1])) {
      if (nruns + 2 > cap) {
        cap *= 2;
        runs = rtg_xrealloc(runs, cap * sizeof *runs, "the sorted runs of the records");
      }
      runs[nruns++] = i;
    }
  }
  runs[nruns] = n;

  if (nruns > 1) {
    uint32_t *tmp = rtg_xmalloc(n * sizeof *tmp, "the merge of the records");
    /* Merge neighbouring runs pairwise until one is left. */
    while (nruns > 1) {
      size_t m = 0;
      for (size_t i = 0; i < nruns; i += 2) {
        if (i + 1 < nruns) merge(a, tmp, runs[i], runs[i + 1], runs[i + 2], r);
        runs[m++] = runs[i];
      }
      runs[m] = n;
      nruns = m;
    }
    free(tmp);
  }
  free(runs);
  return a;
}
