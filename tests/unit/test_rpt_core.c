/* rpt's core pieces on their own: the stable start-time sort (nearly sorted
 * input, and the fallback for input far from sorted), gap buckets at their
 * edges, the per-resource overlap and gap accounting, and ROI selector
 * parsing, linked with those pieces' objects (rpt.h). */
#include "check.h"
#include "rpt.h"

#include <stdlib.h>

const char *const rpt_type_names[RPT_NTYPES] = {"kernel", "barrier", "copy", "copyslo"};

static void sort_check(rpt_data *d) {
  uint32_t *o = rpt_sort(d);
  for (size_t i = 1; i < d->n; i++) {
    const rpt_rec *a = &d->recs[o[i - 1]], *b = &d->recs[o[i]];
    CHECK(a->start < b->start || (a->start == b->start && o[i - 1] < o[i])); /* stable */
  }
  free(o);
}

static void test_sort(void) {
  rpt_data d = {0};
  d.n = 100000;
  d.recs = calloc(d.n, sizeof *d.recs);
  for (size_t i = 0; i < d.n; i++) d.recs[i].start = i * 10 + (i % 7 == 0 ? 0 : 25) - (i % 3) * 9;
  sort_check(&d); /* nearly sorted: the insertion sort */
  for (size_t i = 0; i < d.n; i++) d.recs[i].start = (d.n - i) / 3; /* reversed, with ties */
  sort_check(&d); /* far from sorted: the merge sort */
  srand(7);
  for (size_t i = 0; i < d.n; i++) d.recs[i].start = (uint64_t)(rand() % 1000);
  sort_check(&d);
  d.n = 1;
  sort_check(&d);
  free(d.recs);
}

static void test_gap_buckets(void) {
  uint64_t gaps[] = {10, 20, 50, 100, 1000, 10000, 100000};
  rtg_gap_buckets b = {gaps, 7};
  CHECK_U64(rtg_gap_bucket(&b, 1), 0);
  CHECK_U64(rtg_gap_bucket(&b, 9999), 0);
  CHECK_U64(rtg_gap_bucket(&b, 10000), 1); /* a limit belongs to the bucket above */
  CHECK_U64(rtg_gap_bucket(&b, 19999), 1);
  CHECK_U64(rtg_gap_bucket(&b, 99999999), 6);
  CHECK_U64(rtg_gap_bucket(&b, 100000000), 7);
  rtg_strtab *t = rtg_strtab_new();
  rpt_resources rs;
  rpt_resources_init(&rs, t, b);
  CHECK_STR(rtg_strtab_get(t, rs.gap_names[0]), "gap <10us");
  CHECK_STR(rtg_strtab_get(t, rs.gap_names[1]), "gap 10us-20us");
  CHECK_STR(rtg_strtab_get(t, rs.gap_names[6]), "gap 10000us-100000us");
  CHECK_STR(rtg_strtab_get(t, rs.gap_names[7]), "gap >=100000us");
  rpt_resources_free(&rs);
  rtg_strtab_free(t);
}

static void test_overlap(void) {
  uint64_t gaps[] = {10};
  rtg_strtab *t = rtg_strtab_new();
  uint32_t k = rtg_strtab_intern(t, "k", 1);
  rpt_resources rs;
  rpt_resources_init(&rs, t, (rtg_gap_buckets){gaps, 1});
  rpt_rec recs[] = {
      {.start = 0, .stop = 10000, .name = k},     /* 10 us */
      {.start = 5000, .stop = 15000, .name = k},  /* overlaps: counts 5 us */
      {.start = 6000, .stop = 7000, .name = k},   /* inside: counts 0 */
      {.start = 15000, .stop = 16000, .name = k}, /* back to back: no gap */
      {.start = 36000, .stop = 37000, .name = k}, /* after a 20 us gap */
  };
  uint64_t want_crit[] = {10000, 5000, 0, 1000, 1000}, want_gap[] = {0, 0, 0, 0, 20000};
  rpt_resource *res = NULL;
  for (size_t i = 0; i < 5; i++) {
    uint64_t gap;
    res = rpt_resource_of(&rs, &recs[i]);
    CHECK_U64(rpt_resource_add(&rs, res, &recs[i], &gap), want_crit[i]);
    CHECK_U64(gap, want_gap[i]);
  }
  CHECK_STR(res->name, "GPU0");
  CHECK_U64(res->busy, 17000);
  CHECK_U64(res->nrows, 2);
  CHECK_U64(res->rows[0].calls, 5);
  CHECK_U64(res->rows[0].min, 0);
  CHECK_U64(res->rows[0].max, 10000);
  CHECK_U64(res->rows[1].key, RPT_GAP_BIT | 1); /* "gap >=10us" */
  rpt_rec copy = {.start = 1, .stop = 2, .type = RPT_COPY};
  CHECK_STR(rpt_resource_of(&rs, &copy)->name, "DATA");
  rpt_resources_free(&rs);
  rtg_strtab_free(t);
}

static void test_roi_parse(void) {
  rpt_roi r = {0};
  CHECK(rpt_roi_parse(&r, "roi_start", "@1342") == 0 && r.kind == ROI_LINE && r.line == 1342);
  CHECK(rpt_roi_parse(&r, "roi_start", "^55.12345") == 0 && r.kind == ROI_TIME &&
        r.time_ns == 55123450);
  CHECK(rpt_roi_parse(&r, "roi_start", "^7us") == 0 && r.time_ns == 7000);
  CHECK(rpt_roi_parse(&r, "roi_start", "^2s") == 0 && r.time_ns == 2000000000);
  CHECK(rpt_roi_parse(&r, "roi_start", "2%My[A-Z]+Marker") == 0 && r.kind == ROI_REGEX &&
        r.nth == 2);
  CHECK(rpt_roi_parse(&r, "roi_start", "%x") == 0 && r.nth == 1);
  fprintf(stderr, "(usage messages expected below)\n");
  CHECK(rpt_roi_parse(&r, "roi_start", "1342") != 0);
  CHECK(rpt_roi_parse(&r, "roi_start", "@x") != 0);
  CHECK(rpt_roi_parse(&r, "roi_start", "@0") != 0);
  CHECK(rpt_roi_parse(&r, "roi_start", "^-1") != 0);
  CHECK(rpt_roi_parse(&r, "roi_start", "^1h") != 0);
  CHECK(rpt_roi_parse(&r, "roi_start", "%(") != 0);
  rpt_roi_free(&r);
}

/* The nth smallest match by (start, index) wins, whatever the read order. */
static void test_roi_nth(void) {
  rpt_roi r = {0};
  CHECK(rpt_roi_parse(&r, "roi_start", "3%mark") == 0);
  uint64_t starts[] = {50, 10, 40, 20, 30, 20};
  rpt_rec rec = {0};
  for (uint32_t i = 0; i < 6; i++) {
    rpt_roi_text(&r, 2 * i + 1, "a mark", 6);
    rec.start = starts[i];
    rpt_roi_record(&r, 2 * i + 2, &rec, i, 0);
  }
  CHECK_U64(r.nheap, 3);
  CHECK_U64(r.heap[0].start, 20); /* 10, 20 (idx 3), 20 (idx 5) */
  CHECK_U64(r.heap[0].idx, 5);
  CHECK_U64(r.heap[0].line, 11);
  rpt_roi_free(&r);
}

int main(void) {
  test_sort();
  test_gap_buckets();
  test_overlap();
  test_roi_parse();
  test_roi_nth();
  return check_done("test_rpt_core");
}
