/* What the HTML report shows beyond the analysis JSON, computed at the end
 * from the model (its idle pieces and ops) and the events kept (html.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../../analyze/sort.h"
#include "html.h"
#include "parts.h"

static ht_dev *dev_of(ht_state *h, uint32_t proc, rtg_device device) {
  bool added;
  uint64_t *v = rtg_u64map_put(&h->dev_index, (uint64_t)proc << 32 | device, 0, &added);
  if (!v) oom();
  if (!*v) {
    if (h->nd == h->capd) {
      h->capd = h->capd ? h->capd * 2 : 8;
      ht_dev *nd = realloc(h->d, h->capd * sizeof *nd);
      if (!nd) oom();
      h->d = nd;
    }
    h->d[h->nd] = (ht_dev){.proc = proc, .device = device};
    *v = ++h->nd;
  }
  return &h->d[*v - 1];
}

void ht_piece_cb(void *arg, const an_piece *p) {
  ht_state *h = arg; /* (the GPUs' pieces: the report bins them) */
  ht_dev *d = dev_of(h, p->proc, p->device);
  if (d->np == d->cap) {
    d->cap = d->cap ? d->cap * 2 : 64;
    ht_piece *np = realloc(d->p, d->cap * sizeof *np);
    if (!np) oom();
    d->p = np;
  }
  d->p[d->np++] = (ht_piece){p->start, p->end, p->cause};
}

/* [s, e) into the bins of series k of a device's utilisation. */
static void util_add(ht_dev *d, int k, uint64_t s, uint64_t e) {
  if (s < d->span_start) s = d->span_start;
  if (e > d->span_end) e = d->span_end;
  if (e <= s) return;
  double w = (double)(d->span_end - d->span_start) / (double)d->nbins;
  double a = (double)(s - d->span_start), b = (double)(e - d->span_start);
  size_t i = (size_t)(a / w), j = (size_t)(b / w);
  if (j >= d->nbins) j = d->nbins - 1;
  if (i > j) i = j;
  for (size_t x = i; x <= j; x++) {
    double lo = (double)x * w, hi = lo + w;
    double o = (b < hi ? b : hi) - (a > lo ? a : lo);
    if (o > 0) d->util[x * HT_NSERIES + k] += (float)o;
  }
}

#define MERGE_RUNS 64 /* sorted runs merged; more are sorted by a radix sort */

/* Merges the sorted runs of v (run k: [at[k], at[k + 1])) in pairs, into
 * a, then between a and b, until one is left; returns where it is (a or
 * b); v is only read; equal starts keep their order. */
static ht_piece *merge_runs(const ht_piece *v, ht_piece *a, ht_piece *b, size_t *at, size_t nruns) {
  const ht_piece *from = v;
  ht_piece *to = a;
  while (nruns > 1) {
    size_t m = 0;
    for (size_t k = 0; k < nruns; k += 2) {
      size_t i = at[k], mid = at[k + 1], end = k + 2 <= nruns ? at[k + 2] : mid, j = mid,
             o = at[k]; /* (the last run alone when they are odd: copied) */
      while (i < mid && j < end) to[o++] = from[j].s < from[i].s ? from[j++] : from[i++];
      while (i < mid) to[o++] = from[i++];
      while (j < end) to[o++] = from[j++];
      at[m++] = at[k];
    }
    at[m] = at[nruns];
    nruns = m;
    from = to;
    to = to == a ? b : a;
  }
  return to == a ? b : a;
}

/* A device's idle pieces by start (they are disjoint; they come by cause,
 * each cause's in order: a few sorted runs, merged), d->p only read: d->p
 * where sorted, else a new array. */
static ht_piece *sorted_pieces(const ht_dev *d) {
  size_t nruns = 1;
  for (size_t i = 1; i < d->np; i++) nruns += d->p[i].s < d->p[i - 1].s;
  if (nruns == 1) return d->p;
  ht_piece *v = malloc((d->np + 1) * sizeof *v);
  if (!v) oom();
  if (nruns <= MERGE_RUNS) {
    size_t at[MERGE_RUNS + 1], k = 0;
    at[k++] = 0;
    for (size_t i = 1; i < d->np; i++)
      if (d->p[i].s < d->p[i - 1].s) at[k++] = i;
    at[k] = d->np;
    ht_piece *spare = nruns > 2 ? malloc((d->np + 1) * sizeof *spare) : NULL;
    if (nruns > 2 && !spare) oom();
    ht_piece *r = merge_runs(d->p, v, spare, at, nruns);
    free(r == v ? spare : v);
    return r;
  }
  uint64_t *key = malloc((d->np + 1) * sizeof *key);
  uint32_t *perm = malloc((d->np + 1) * sizeof *perm);
  if (!key || !perm) oom();
  for (size_t i = 0; i < d->np; i++) key[i] = d->p[i].s;
  an_order_by_key(key, d->np, perm);
  for (size_t i = 0; i < d->np; i++) v[i] = d->p[perm[i]];
  free(key), free(perm);
  return v;
}

static int gap_by_size(const void *a, const void *b) {
  const ht_gap *x = a, *y = b;
  uint64_t lx = x->e - x->s, ly = y->e - y->s;
  return lx > ly ? -1 : lx < ly;
}

/* The gaps: the idle pieces after startup, touching ones merged (an idle
 * stretch between two kernels); their histogram and the largest. */
static void gaps(ht_state *h, ht_dev *d, uint32_t di, ht_piece **sorted) {
  rtg_gap_buckets b = cv_gap_buckets(h->ctx);
  d->hist_count = calloc(b.n + 1, sizeof *d->hist_count);
  d->hist_ns = calloc(b.n + 1, sizeof *d->hist_ns);
  d->worst = calloc(HT_WORST_GAPS + 1, sizeof *d->worst);
  if (!d->hist_count || !d->hist_ns || !d->worst) oom();
  const ht_piece *p = *sorted = sorted_pieces(d);
  for (size_t i = 0; i < d->np;) {
    if (p[i].cause == AN_STARTUP) {
      i++;
      continue;
    }
    ht_gap g = {p[i].s, p[i].e, di};
    for (i++; i < d->np && p[i].cause != AN_STARTUP && p[i].s <= g.e; i++)
      if (p[i].e > g.e) g.e = p[i].e;
    size_t k = rtg_gap_bucket(&b, g.e - g.s);
    d->hist_count[k]++;
    d->hist_ns[k] += g.e - g.s;
    d->ngaps++;
    /* keep the largest: insertion into a short sorted list */
    size_t n = d->nworst;
    d->worst[n] = g;
    while (n && d->worst[n].e - d->worst[n].s > d->worst[n - 1].e - d->worst[n - 1].s) {
      ht_gap t = d->worst[n];
      d->worst[n] = d->worst[n - 1];
      d->worst[n - 1] = t;
      n--;
    }
    if (d->nworst < HT_WORST_GAPS) d->nworst++;
  }
}

static const rtg_strtab *kstat_names; /* (qsort has no argument; set before any kernels()) */

/* the largest total first, then by name (as --stats orders them) */
static int kstat_order(const void *a, const void *b) {
  const ht_kstat *x = a, *y = b;
  if (x->total != y->total) return x->total > y->total ? -1 : 1;
  return strcmp(rtg_strtab_get(kstat_names, x->name), rtg_strtab_get(kstat_names, y->name));
}

static int u64_order(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* Puts v[k] where a sort of v[0..n) would, smaller or equal values
 * before it and larger or equal after (a selection: three-way partitions
 * around a median of three; a sort where they do not shrink the range). */
static void select_k(uint64_t *v, size_t n, size_t k) {
  size_t lo = 0, hi = n, rounds = 0; /* k in [lo, hi) */
  while (hi - lo > 16) {
    if (++rounds > 64) break;
    uint64_t a = v[lo], b = v[lo + (hi - lo) / 2], c = v[hi - 1];
    uint64_t p = a < b ? (b < c ? b : a < c ? c : a) : (a < c ? a : b < c ? c : b);
    size_t lt = lo, i = lo, gt = hi; /* [lo, lt) < p, [lt, i) == p, [gt, hi) > p */
    while (i < gt) {
      uint64_t x = v[i];
      if (x < p)
        v[i++] = v[lt], v[lt++] = x;
      else if (x > p)
        v[i] = v[--gt], v[gt] = x;
      else
        i++;
    }
    if (k < lt)
      hi = lt;
    else if (k >= gt)
      lo = gt;
    else
      return; /* v[k] == p, in place */
  }
  qsort(v + lo, hi - lo, sizeof *v, u64_order);
}

/* nearest rank: the smallest value with at least p % of them at or below */
static size_t rank_of(uint64_t n, unsigned p) {
  uint64_t r = (n * p + 99) / 100;
  return r ? (size_t)r - 1 : 0;
}

/* The kernels of a device by name: count, total, median, p95, max.  Their
 * durations grouped by name (a counting sort on the name's place among
 * the device's names: slot, all UINT32_MAX, is left so), the ranks of
 * each group by selection. */
static void kernels(ht_state *h, ht_kgroup *d, uint32_t *slot) {
  uint32_t *names = NULL; /* place -> name id */
  size_t *at = NULL;      /* place -> its durations' count, then start */
  uint32_t nn = 0, cap = 0;
  size_t n = 0;
  for (uint32_t i = 0; i < h->nt; i++) {
    const ht_track *t = &h->t[i];
    if (t->kind != HT_QUEUE || t->proc != d->proc || t->key >> 32 != d->device) continue;
    for (size_t j = 0; j < t->n; j++) {
      uint32_t id = t->v[j].name;
      if (id == h->barrier_name) continue;
      if (slot[id] == UINT32_MAX) {
        if (nn == cap) {
          cap = cap ? 2 * cap : 64;
          names = realloc(names, cap * sizeof *names);
          at = realloc(at, (cap + 1) * sizeof *at);
          if (!names || !at) oom();
        }
        names[nn] = id, at[nn] = 0;
        slot[id] = nn++;
      }
      at[slot[id]]++;
      n++;
    }
  }
  size_t sum = 0;
  for (uint32_t k = 0; k < nn; k++) {
    size_t c = at[k];
    at[k] = sum;
    sum += c;
  }
  uint64_t *v = malloc((n + 1) * sizeof *v);
  d->k = malloc((nn + 1) * sizeof *d->k);
  if (!v || !d->k) oom();
  for (uint32_t i = 0; i < h->nt; i++) {
    const ht_track *t = &h->t[i];
    if (t->kind != HT_QUEUE || t->proc != d->proc || t->key >> 32 != d->device) continue;
    for (size_t j = 0; j < t->n; j++)
      if (t->v[j].name != h->barrier_name)
        v[at[slot[t->v[j].name]]++] = t->v[j].end - t->v[j].start;
  }
  /* (at[k] is now where group k ends) */
  for (uint32_t k = 0; k < nn; k++) {
    size_t e = at[k], b = k ? at[k - 1] : 0, c = e - b;
    uint64_t *g = v + b, total = 0, max = 0;
    for (size_t j = 0; j < c; j++) {
      total += g[j];
      if (g[j] > max) max = g[j];
    }
    size_t k95 = rank_of(c, 95), k50 = rank_of(c, 50);
    select_k(g, c, k95);
    if (k50 < k95) select_k(g, k95, k50);
    d->k[k] = (ht_kstat){names[k], c, total, g[k50], g[k95], max};
    slot[names[k]] = UINT32_MAX;
  }
  free(v), free(names), free(at);
  qsort(d->k, nn, sizeof *d->k, kstat_order);
  d->nk = nn < HT_TOP_KERNELS ? nn : HT_TOP_KERNELS;
}

static int ev_order(const void *a, const void *b) {
  const ht_ev *x = a, *y = b;
  if (x->start != y->start) return x->start < y->start ? -1 : 1;
  return x->end > y->end ? -1 : x->end < y->end;
}

static int track_order(const void *a, const void *b) {
  const ht_track *x = a, *y = b;
  if (x->proc != y->proc) return x->proc < y->proc ? -1 : 1;
  if (x->kind != y->kind) return x->kind < y->kind ? -1 : 1;
  return x->key < y->key ? -1 : x->key > y->key;
}

/* A track's coverage: per bin of [first, last), the share covered by its
 * events (their union), 0..255 (any event at all: at least 1). */
static void track_bins(ht_state *h, ht_track *t, uint8_t *out) {
  double w = (double)(h->last - h->first) / (double)t->nbins;
  if (w <= 0) w = 1;
  double *acc = calloc(t->nbins, sizeof *acc);
  if (!acc) oom();
  uint64_t cs = 0, ce = 0;
  for (size_t i = 0; i <= t->n; i++) {
    if (i < t->n && t->v[i].start <= ce && i) {
      if (t->v[i].end > ce) ce = t->v[i].end;
      continue;
    }
    if (i) { /* flush [cs, ce) */
      double a = (double)(cs - h->first), b = (double)(ce - h->first);
      size_t x = (size_t)(a / w), y = (size_t)(b / w);
      if (y >= t->nbins) y = t->nbins - 1;
      if (x > y) x = y;
      for (size_t k = x; k <= y; k++) {
        double lo = (double)k * w, hi = lo + w;
        double o = (b < hi ? b : hi) - (a > lo ? a : lo);
        acc[k] += o > 0 ? o : 1e-9;
      }
    }
    if (i < t->n) cs = t->v[i].start, ce = t->v[i].end;
  }
  for (size_t k = 0; k < t->nbins; k++) {
    double f = acc[k] / w;
    out[k] = acc[k] <= 0 ? 0 : f >= 1 ? 255 : (uint8_t)(1 + f * 254);
  }
  free(acc);
}

/* The first event of a track that may end after t (sorted by start; none
 * lasts over maxdur). */
size_t ht_first_at(const ht_track *t, uint64_t at) {
  uint64_t from = at > t->maxdur ? at - t->maxdur : 0;
  size_t lo = 0, hi = t->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (t->v[mid].start < from)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

static int u64_pair_order(const void *a, const void *b) {
  const uint64_t *x = a, *y = b;
  return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* Not every event fits: the windows around the largest gaps of every
 * device, the largest first, while their events fit. */
static void choose_windows(ht_state *h) {
  size_t n = 0;
  for (uint32_t i = 0; i < h->nd; i++) n += h->d[i].nworst;
  ht_gap *g = malloc((n + 1) * sizeof *g);
  h->win = malloc((2 * n + 2) * sizeof *h->win);
  if (!g || !h->win) oom();
  n = 0;
  for (uint32_t i = 0; i < h->nd; i++)
    for (size_t j = 0; j < h->d[i].nworst; j++) g[n++] = h->d[i].worst[j];
  qsort(g, n, sizeof *g, gap_by_size);
  size_t total = 0;
  for (size_t i = 0; i < n; i++) {
    uint64_t len = g[i].e - g[i].s, m = len / 4 > 50000 ? len / 4 : 50000;
    uint64_t s = g[i].s > m ? g[i].s - m : 0, e = g[i].e + m;
    size_t cnt = 0;
    for (uint32_t k = 0; k < h->nt; k++) {
      const ht_track *t = &h->t[k];
      if (t->proc != h->d[g[i].dev].proc) continue;
      for (size_t j = ht_first_at(t, s); j < t->n && t->v[j].start < e; j++) cnt += t->v[j].end > s;
    }
    if (total + cnt > h->max_events) continue;
    total += cnt;
    h->win[2 * h->nwin] = s, h->win[2 * h->nwin + 1] = e;
    h->nwin++;
  }
  free(g);
  qsort(h->win, h->nwin, 2 * sizeof *h->win, u64_pair_order);
  size_t m = 0; /* merge overlapping windows */
  for (size_t i = 0; i < h->nwin; i++) {
    if (m && h->win[2 * i] <= h->win[2 * m - 1]) {
      if (h->win[2 * i + 1] > h->win[2 * m - 1]) h->win[2 * m - 1] = h->win[2 * i + 1];
      continue;
    }
    h->win[2 * m] = h->win[2 * i], h->win[2 * m + 1] = h->win[2 * i + 1];
    m++;
  }
  h->nwin = m;
}

/* Keeps only a track's events that overlap a window. */
static void keep_windows(ht_state *h, ht_track *t) {
  size_t m = 0, w = 0;
  for (size_t i = 0; i < t->n; i++) {
    const ht_ev *e = &t->v[i];
    while (w < h->nwin && h->win[2 * w + 1] <= e->start) w++;
    bool in = false;
    for (size_t k = w; k < h->nwin && h->win[2 * k] < e->end; k++)
      if (h->win[2 * k + 1] > e->start) {
        in = true;
        break;
      }
    /* (an event that began before the window it overlaps: w is past it
     * only when that window ended before the event began) */
    if (in) t->v[m++] = *e;
  }
  t->n = m;
}

/* ht_prepare's items side by side: the top kernels of each (process,
 * GPU) (items below ngroups, each with a name slot table of its own),
 * then each track's coverage bins. */
typedef struct prep_job {
  ht_state *h;
  uint32_t ngroups;
} prep_job;

static void prep_part(void *arg, size_t lo, size_t hi) {
  const prep_job *j = arg;
  ht_state *h = j->h;
  uint32_t *slot = NULL;
  for (size_t i = lo; i < hi; i++) {
    if (i < j->ngroups) {
      if (!slot) {
        slot = malloc(((size_t)h->max_name + 1) * sizeof *slot);
        if (!slot) oom();
        memset(slot, 0xff, ((size_t)h->max_name + 1) * sizeof *slot);
      }
      kernels(h, &h->kg[i], slot); /* (it leaves slot as it found it) */
      continue;
    }
    ht_track *t = &h->t[i - j->ngroups];
    if (t->n) track_bins(h, t, h->bins + t->bins_off);
  }
  free(slot);
}

static void sort_part(void *arg, size_t lo, size_t hi) {
  ht_state *h = arg;
  for (size_t i = lo; i < hi; i++)
    if (h->t[i].unsorted) qsort(h->t[i].v, h->t[i].n, sizeof *h->t[i].v, ev_order);
}

void ht_prepare(ht_state *h) {
  h->all_embedded = h->nev <= h->max_events;
  /* the times are from the earliest process start (where the analysis'
   * spans begin) or event */
  const cv_ctx *ctx = h->ctx;
  for (uint32_t i = 0; i < ctx->nprocs; i++) {
    uint64_t b = ctx->procs[i].boot_ns;
    if (b && b >= ctx->window_start && (!h->nev || b < h->first)) h->first = b;
  }
  bool apart = h->nev >= an_apart(); /* (as the analysis's parts) */
  if (apart)                         /* each track's events by start */
    rtg_parts_run(h->nt, 1, h->nt, sort_part, h);
  else
    sort_part(h, 0, h->nt);
  qsort(h->t, h->nt, sizeof *h->t, track_order);
  /* the kernels of each (process, GPU): its queue tracks are adjacent */
  kstat_names = h->names;
  for (uint32_t i = 0; i < h->nt; i++) {
    const ht_track *t = &h->t[i];
    if (t->kind != HT_QUEUE) continue;
    if (h->nkg && h->kg[h->nkg - 1].proc == t->proc && h->kg[h->nkg - 1].device == t->key >> 32)
      continue;
    ht_kgroup *nk = realloc(h->kg, (h->nkg + 1) * sizeof *nk);
    if (!nk) oom();
    h->kg = nk;
    h->kg[h->nkg++] = (ht_kgroup){.proc = t->proc, .device = (rtg_device)(t->key >> 32)};
  }
  /* coverage bins of every track over the whole run, of all its events */
  for (uint32_t i = 0; i < h->nt; i++) {
    ht_track *t = &h->t[i];
    size_t want = 64;
    while (want < t->n / 8 && want < 8192) want *= 2;
    t->bins_off = h->nbins;
    t->nbins = want;
    h->nbins += want;
  }
  h->bins = calloc(h->nbins + 1, 1);
  if (!h->bins) oom();
  /* each group's top kernels and each track's bins side by side */
  prep_job j = {h, (uint32_t)h->nkg};
  if (apart)
    rtg_parts_run(h->nkg + h->nt, 1, h->nkg + h->nt, prep_part, &j);
  else
    prep_part(&j, 0, h->nkg + h->nt);
}

/* A device's utilisation (the idle pieces' series and busy; copy busy)
 * and gaps: three parts that write different series and fields, the
 * pieces sorted into an array of their own. */
typedef struct dev_job {
  ht_state *h;
  ht_dev *d;
  uint32_t di;
  ht_piece *sorted;
} dev_job;

static void dev_idle(ht_dev *d) {
  for (size_t i = 0; i < d->np; i++) util_add(d, 2 + d->p[i].cause, d->p[i].s, d->p[i].e);
  /* busy = the span's part of the bin less its idle pieces */
  double w = (double)(d->span_end - d->span_start) / (double)d->nbins;
  for (size_t b = 0; b < d->nbins; b++) {
    float *u = &d->util[b * HT_NSERIES];
    double idle = 0;
    for (int c = 0; c < AN_NCAUSES; c++) idle += u[2 + c];
    u[0] = (float)(w - idle > 0 ? w - idle : 0);
  }
}

static void dev_copies(const ht_state *h, ht_dev *d) { /* the union of the model's copies */
  for (uint32_t i = 0; i < h->an->ndevs; i++) {
    const an_dev *ad = &h->an->devs[i];
    if (ad->proc != d->proc || ad->device != d->device) continue;
    uint64_t cs = 0, ce = 0;
    bool have = false;
    for (size_t j = 0; j < ad->nops; j++) {
      const an_op *op = &ad->ops[j];
      if (op->kind != AN_OP_COPY) continue;
      if (have && op->start <= ce) {
        if (op->end > ce) ce = op->end;
        continue;
      }
      if (have) util_add(d, 1, cs, ce);
      cs = op->start, ce = op->end, have = true;
    }
    if (have) util_add(d, 1, cs, ce);
  }
}

static void dev_part(void *arg, size_t lo, size_t hi) {
  dev_job *j = arg;
  for (size_t k = lo; k < hi; k++)
    if (k == 0)
      dev_idle(j->d);
    else if (k == 1)
      dev_copies(j->h, j->d);
    else
      gaps(j->h, j->d, j->di, &j->sorted);
}

void ht_compute(ht_state *h) {
  for (uint32_t i = 0; i < h->an->ndevs; i++) {
    const an_dev *ad = &h->an->devs[i];
    if (!ad->ok) continue;
    ht_dev *d = dev_of(h, ad->proc, ad->device);
    d->span_start = ad->res.span_start;
    d->span_end = ad->res.span_end;
  }
  for (uint32_t di = 0; di < h->nd; di++) {
    ht_dev *d = &h->d[di];
    if (d->span_end <= d->span_start) continue; /* (not ok in the analysis) */
    size_t nops = d->np;
    for (uint32_t i = 0; i < h->an->ndevs; i++)
      if (h->an->devs[i].proc == d->proc && h->an->devs[i].device == d->device)
        nops += h->an->devs[i].nops;
    d->nbins = 256;
    while (d->nbins < HT_UTIL_BINS && d->nbins < 4 * nops) d->nbins *= 2;
    d->util = calloc(d->nbins * HT_NSERIES, sizeof *d->util);
    if (!d->util) oom();
    dev_job j = {h, d, di, NULL};
    rtg_parts_run(3, 1, nops >= an_apart() ? 3 : 1, dev_part, &j);
    if (j.sorted != d->p) {
      free(d->p);
      d->p = j.sorted;
      d->cap = d->np;
    }
    for (size_t k = 0; k < h->nkg; k++)
      if (h->kg[k].proc == d->proc && h->kg[k].device == d->device) {
        d->k = h->kg[k].k, d->nk = h->kg[k].nk;
        h->kg[k].k = NULL;
      }
  }
  if (!h->all_embedded) choose_windows(h);
}

void ht_free_data(ht_state *h) {
  for (uint32_t i = 0; i < h->nd; i++) {
    ht_dev *d = &h->d[i];
    free(d->p);
    free(d->util);
    free(d->k);
    free(d->hist_count);
    free(d->hist_ns);
    free(d->worst);
  }
  free(h->d);
  free(h->win);
  for (size_t k = 0; k < h->nkg; k++) free(h->kg[k].k);
  free(h->kg);
  free(h->bins);
  rtg_u64map_free(&h->dev_index);
}

void ht_keep(ht_state *h, ht_track *t) {
  if (!h->all_embedded) keep_windows(h, t);
}
