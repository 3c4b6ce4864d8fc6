/* Region of interest.  A ROI point selects one record, in start-time
 * order, as the original rpt did:
 *   @LINE      the record on that line, or the first record after it when
 *              the line is text (text belongs to the record that follows)
 *   ^TIME      the first record starting at least TIME after the first one
 *   N%REGEX    the record whose preceding text is the Nth (in start order)
 *              to hold a matching line
 * Text is not kept, so @LINE and %REGEX are watched during the read: each
 * file yields candidates, and the smallest sort key (start, index) wins
 * after the sort.  For %REGEX a max-heap keeps only the N best matches. */
#include "diag.h"
#include "rpt.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

static void roi_usage(const char *opt, const char *arg, const char *why) {
  fprintf(stderr, "rpt: error: argument --%s: %s: '%s'\n", opt, why, arg);
  fprintf(stderr, "  ROI_POINT: @LINENUM, ^START_TIME or [MATCH_NUM]%%REGEX (see rpt --help)\n");
}

/* "55.12345" (ms), or with a unit: ns, us, ms, s. */
static bool parse_time(const char *s, uint64_t *ns) {
  char *e;
  double v = strtod(s, &e);
  if (e == s || !(v >= 0)) return false; /* also NaN */
  double scale = 1e6;
  if (!strcmp(e, "ns"))
    scale = 1;
  else if (!strcmp(e, "us"))
    scale = 1e3;
  else if (!strcmp(e, "ms") || !*e)
    scale = 1e6;
  else if (!strcmp(e, "s"))
    scale = 1e9;
  else
    return false;
  double x = v * scale + 0.5;
  if (x >= 1.8e19) return false;
  *ns = (uint64_t)x;
  return true;
}

int rpt_roi_parse(rpt_roi *r, const char *opt, const char *arg) {
  rpt_roi_free(r);
  memset(r, 0, sizeof *r);
  r->opt = opt;
  r->arg = arg;
  const char *s = arg;
  uint64_t n = 0;
  bool has_n = false;
  while (*s >= '0' && *s <= '9') {
    if (n > UINT64_MAX / 10 - 1) return roi_usage(opt, arg, "match number too large"), 1;
    n = n * 10 + (uint64_t)(*s++ - '0');
    has_n = true;
  }
  char marker = *s++;
  char *e;
  switch (marker) {
  case '@':
    r->kind = ROI_LINE;
    r->line = strtoull(s, &e, 10);
    if (!*s || *e || *s == '-' || r->line == 0)
      return roi_usage(opt, arg, "@ needs a line number (from 1)"), 1;
    return 0;
  case '^':
    r->kind = ROI_TIME;
    if (!parse_time(s, &r->time_ns))
      return roi_usage(opt, arg, "^ needs a time (ms, or with ns/us/ms/s)"), 1;
    return 0;
  case '%': {
    r->kind = ROI_REGEX;
    r->nth = has_n && n > 0 ? n : 1;
    int rc = regcomp(&r->re, s, REG_EXTENDED | REG_NOSUB);
    if (rc) {
      char msg[256];
      regerror(rc, &r->re, msg, sizeof msg);
      roi_usage(opt, arg, msg);
      return 1;
    }
    r->re_ok = true;
    return 0;
  }
  default:
    roi_usage(opt, arg, "expected @, ^ or %");
    return 1;
  }
}

void rpt_roi_free(rpt_roi *r) {
  if (r->re_ok) regfree(&r->re);
  r->re_ok = false;
  for (size_t i = 0; i < r->nheap; i++) free(r->heap[i].text);
  free(r->heap);
  free(r->pend_text);
  r->heap = NULL;
  r->pend_text = NULL;
  r->nheap = 0;
  r->pend_cap = 0;
}

static bool key_less(uint64_t s1, uint32_t i1, uint64_t s2, uint32_t i2) {
  return s1 < s2 || (s1 == s2 && i1 < i2);
}

/* ---------------------------------------------------------------- heap */

static bool heap_less(const rpt_roi_match *a, const rpt_roi_match *b) {
  return key_less(a->start, a->idx, b->start, b->idx);
}

static void heap_swap(rpt_roi_match *a, rpt_roi_match *b) {
  rpt_roi_match t = *a;
  *a = *b;
  *b = t;
}

/* Offer a match; the heap keeps the nth smallest keys, largest on top. */
static void heap_offer(rpt_roi *r, const rpt_roi_match *m) {
  rpt_roi_match *h = r->heap;
  if (r->nheap == r->nth) {
    if (!heap_less(m, &h[0])) return;
    free(h[0].text);
    h[0] = *m;
    h[0].text = strdup(m->text);
    for (size_t i = 0;;) { /* sift down */
      size_t l = 2 * i + 1, rr = l + 1, big = i;
      if (l < r->nheap && heap_less(&h[big], &h[l])) big = l;
      if (rr < r->nheap && heap_less(&h[big], &h[rr])) big = rr;
      if (big == i) break;
      heap_swap(&h[i], &h[big]);
      i = big;
    }
    return;
  }
  if ((r->nheap & (r->nheap - 1)) == 0) { /* grow at powers of two */
    h = rtg_xrealloc(h, (r->nheap ? 2 * r->nheap : 1) * sizeof *h, "the ROI's pending commands");
    r->heap = h;
  }
  size_t i = r->nheap++;
  h[i] = *m;
  h[i].text = strdup(m->text);
  while (i > 0 && heap_less(&h[(i - 1) / 2], &h[i])) { /* sift up */
    heap_swap(&h[i], &h[(i - 1) / 2]);
    i = (i - 1) / 2;
  }
}

/* ---------------------------------------------------------------- scan */

void rpt_roi_text(rpt_roi *r, uint64_t lineno, const char *line, size_t len) {
  if (r->kind == ROI_LINE) {
    if (lineno == r->line) r->pending = true;
  } else if (r->kind == ROI_REGEX && !r->block_match) {
    if (regexec(&r->re, line, 0, NULL, 0) != 0) return;
    r->block_match = true;
    r->pend_line = lineno;
    if (len + 1 > r->pend_cap) {
      r->pend_cap = len + 1;
      free(r->pend_text);
      r->pend_text = rtg_xmalloc(r->pend_cap, "the ROI's pending text");
    }
    memcpy(r->pend_text, line, len + 1);
  }
}

static void line_candidate(rpt_roi *r, const rpt_rec *rec, uint32_t idx) {
  if (!r->found || key_less(rec->start, idx, r->cand_start, r->cand_idx)) {
    r->found = true;
    r->cand_start = rec->start;
    r->cand_idx = idx;
  }
}

void rpt_roi_record(rpt_roi *r, uint64_t lineno, const rpt_rec *rec, uint32_t idx, uint32_t file) {
  if (r->kind == ROI_LINE) {
    if (r->pending || lineno == r->line) line_candidate(r, rec, idx);
    r->pending = false;
  } else if (r->kind == ROI_REGEX) {
    r->last_rec_matched = r->block_match;
    if (r->block_match) {
      rpt_roi_match m = {rec->start, idx, file, r->pend_line, r->pend_text};
      heap_offer(r, &m);
    }
    r->block_match = false;
  }
}

/* Text after a file's last record belongs to that record (the original gave
 * it to the last record too). */
void rpt_roi_file_end(rpt_roi *r, const rpt_data *d, uint32_t last, uint32_t file) {
  if (last != UINT32_MAX) {
    const rpt_rec *rec = &d->recs[last];
    if (r->kind == ROI_LINE && r->pending) line_candidate(r, rec, last);
    if (r->kind == ROI_REGEX && r->block_match && !r->last_rec_matched) {
      rpt_roi_match m = {rec->start, last, file, r->pend_line, r->pend_text};
      heap_offer(r, &m);
    }
  }
  r->pending = r->block_match = r->last_rec_matched = false;
}

/* ------------------------------------------------------------- resolve */

/* Position of record idx in order[] by binary search on (start, index). */
static size_t position(const rpt_data *d, const uint32_t *order, uint64_t start, uint32_t idx) {
  size_t lo = 0, hi = d->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    const rpt_rec *m = &d->recs[order[mid]];
    if (key_less(m->start, order[mid], start, idx))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

bool rpt_roi_resolve(rpt_roi *r, const rpt_data *d, const uint32_t *order, size_t dflt,
                     size_t *pos) {
  switch (r->kind) {
  case ROI_DEFAULT:
    *pos = dflt;
    return true;
  case ROI_LINE:
    if (!r->found) break;
    *pos = position(d, order, r->cand_start, r->cand_idx);
    return true;
  case ROI_TIME: {
    uint64_t t0 = d->recs[order[0]].start;
    size_t lo = 0, hi = d->n; /* first record with start - t0 >= time */
    while (lo < hi) {
      size_t mid = lo + (hi - lo) / 2;
      if (d->recs[order[mid]].start - t0 < r->time_ns)
        lo = mid + 1;
      else
        hi = mid;
    }
    if (lo == d->n) break;
    *pos = lo;
    return true;
  }
  case ROI_REGEX: {
    if (r->nheap < r->nth) break;
    rpt_roi_match *m = &r->heap[0]; /* the nth smallest */
    size_t tl = strlen(m->text);    /* shown as the original did: rstrip()ped */
    while (tl && (m->text[tl - 1] == ' ' || m->text[tl - 1] == '\t' || m->text[tl - 1] == '\r'))
      m->text[--tl] = 0;
    if (d->npaths > 1)
      printf("info: %%roi regular expression matched @%s:%llu '%s'\n", d->paths[m->file],
             (unsigned long long)m->line, m->text);
    else
      printf("info: %%roi regular expression matched @%llu '%s'\n", (unsigned long long)m->line,
             m->text);
    *pos = position(d, order, m->start, m->idx);
    return true;
  }
  }
  if (r->kind == ROI_REGEX && r->nheap > 0)
    rtg_error("--%s %s: only %zu matching text block(s)", r->opt, r->arg, r->nheap);
  else
    rtg_error("--%s %s: %s", r->opt, r->arg,
              r->kind == ROI_LINE   ? "no record at or after that line"
              : r->kind == ROI_TIME ? "no record starts that late"
                                    : "no text matches");
  return false;
}
