/* rtg-convert's lanes of GPU ops (src/convert/shared/tracks.c): ops that overlap
 * on one queue go on lanes; a full lane (TK_LANE_SPANS busy spans) merges
 * its two closest spans.  tracks.c remembers the smallest gaps between
 * spans instead of looking at them all for each op; here every op's lane
 * and the spans its lane keeps are compared with a model that looks at them
 * all, on op sequences in time
 * order (back to back, with gaps, overlapping; and with ops that fill a gap
 * of a full lane, joining two spans in its middle), reversed and shuffled, with
 * lanes far past full. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tracks.h"

#define NOPS 40000

/* ---- the model: the merge that scans every gap */
typedef struct model_lane {
  uint64_t span[TK_LANE_SPANS + 1][2];
  uint32_t n;
} model_lane;

static uint32_t model_after(const model_lane *l, uint64_t t) {
  uint32_t i = 0;
  while (i < l->n && l->span[i][1] <= t) i++;
  return i;
}

static void model_add(model_lane *l, uint64_t start, uint64_t end) {
  uint32_t i = model_after(l, start);
  if (i > 0 && l->span[i - 1][1] == start) i--;
  uint32_t j = i;
  while (j < l->n && l->span[j][0] <= end) {
    if (l->span[j][0] < start) start = l->span[j][0];
    if (l->span[j][1] > end) end = l->span[j][1];
    j++;
  }
  if (j > i) {
    l->span[i][0] = start, l->span[i][1] = end;
    memmove(&l->span[i + 1], &l->span[j], (l->n - j) * sizeof l->span[0]);
    l->n -= j - i - 1;
    return;
  }
  memmove(&l->span[i + 1], &l->span[i], (l->n - i) * sizeof l->span[0]);
  l->span[i][0] = start, l->span[i][1] = end;
  if (++l->n > TK_LANE_SPANS) {
    uint32_t best = 0;
    uint64_t gap = UINT64_MAX;
    for (uint32_t k = 0; k + 1 < l->n; k++)
      if (l->span[k + 1][0] - l->span[k][1] < gap)
        gap = l->span[k + 1][0] - l->span[k][1], best = k;
    l->span[best][1] = l->span[best + 1][1];
    memmove(&l->span[best + 1], &l->span[best + 2], (l->n - best - 2) * sizeof l->span[0]);
    l->n--;
  }
}

static model_lane model[TK_MAX_LANES];
static uint32_t model_nlanes;

static uint32_t model_lane_of(uint64_t start, uint64_t end) {
  uint32_t lane = UINT32_MAX, best = 0;
  for (uint32_t i = 0; i < model_nlanes; i++) {
    const model_lane *l = &model[i];
    uint32_t k = model_after(l, start);
    if (k == l->n || l->span[k][0] >= end) {
      lane = i;
      break;
    }
    if (l->span[l->n - 1][1] < model[best].span[model[best].n - 1][1]) best = i;
  }
  if (lane == UINT32_MAX) lane = model_nlanes < TK_MAX_LANES ? model_nlanes++ : best;
  model_add(&model[lane], start, end);
  return lane;
}

/* ---- op sequences */
static uint64_t rng = 88172645463325252ull;
static uint64_t rnd(void) {
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return rng;
}

static uint64_t ops[NOPS][2];

/* In time order: some back to back (touching), some with gaps of a few
 * sizes (so that equal gaps occur), some overlapping the one before. */
static void make_ops(void) {
  uint64_t t = 1000;
  for (int i = 0; i < NOPS; i++) {
    uint64_t r = rnd() % 10, dur = 1 + rnd() % 50;
    if (r < 3)
      t += 0; /* back to back */
    else if (r < 8)
      t += (rnd() % 4) * 10; /* a few gap sizes: ties */
    else
      t -= t > 30 ? rnd() % 30 : 0; /* overlaps the op before */
    ops[i][0] = t, ops[i][1] = t + dur;
    t += dur;
  }
}

static void run(const char *order) {
  cv_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  cv_proc proc;
  memset(&proc, 0, sizeof proc);
  ctx.procs = &proc;
  ctx.nprocs = 1;
  tracks ts;
  tracks_init(&ts, &ctx);
  memset(model, 0, sizeof model);
  model_nlanes = 0;
  uint32_t differ = 0, lanes = 0, spans_differ = 0, full = 0;
  for (int n = 0; n < NOPS; n++) {
    int i = n;
    if (!strcmp(order, "reversed")) i = NOPS - 1 - n;
    uint64_t start = ops[i][0], end = ops[i][1];
    if (!strcmp(order, "filling gaps") && n % 7 == 3 && model[0].n > 2) {
      /* an op that fills a gap of lane 0 exactly: it joins the spans on
       * both sides, in the middle of the lane */
      uint32_t k = (uint32_t)(rnd() % (model[0].n - 1));
      if (model[0].span[k][1] < model[0].span[k + 1][0])
        start = model[0].span[k][1], end = model[0].span[k + 1][0];
    }
    const track *t = tracks_lane(&ts, 0, TK_QUEUE, 1, 0, start, end);
    uint32_t want = model_lane_of(start, end);
    if (t->lane != want) differ++;
    if (t->lane + 1 > lanes) lanes = t->lane + 1;
    /* and the busy spans the lane keeps, merges included */
    const tk_lane *got = &tracks_get(&ts, 0, TK_QUEUE, 1, 0, 0)->lanes[want];
    const model_lane *m = &model[want];
    if (got->n != m->n || memcmp(got->span, m->span, m->n * sizeof m->span[0])) spans_differ++;
    if (m->n == TK_LANE_SPANS) full++;
  }
  printf(
      "%s: %d ops on %u lanes (%s), %u on a different lane than the model's, %u with other spans\n",
      order, NOPS, lanes, full > NOPS / 2 ? "mostly full" : "not full", differ, spans_differ);
  CHECK(differ == 0);
  CHECK(spans_differ == 0);
  CHECK(lanes > 1);
  CHECK(full > NOPS / 2); /* the merges are what is tested */
  tracks_free(&ts);
}

int main(void) {
  make_ops();
  run("in order");
  run("filling gaps");
  run("reversed");
  for (int i = NOPS - 1; i > 0; i--) { /* shuffled */
    int j = (int)(rnd() % (uint64_t)(i + 1));
    uint64_t a = ops[i][0], b = ops[i][1];
    ops[i][0] = ops[j][0], ops[i][1] = ops[j][1];
    ops[j][0] = a, ops[j][1] = b;
  }
  run("shuffled");
  return check_done("test_convert_lanes");
}
