/* The reports' time model (src/convert/shared/timemodel.c), which streams,
 * against the analysis's attribution (src/convert/analyze/attrib.c), which
 * keeps every op: on random GPUs of kernels, barriers and copies on two
 * queues, given in shuffled order, with and without a window and a
 * process start, both give the same span, busy, copy busy and idle per GPU
 * and per queue, and the streamed gaps add up to the idle time. */
#include <stdlib.h>
#include <string.h>

#include "analyze/attrib.h"
#include "check.h"
#include "timemodel.h"

#define MAXOPS 200

static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint64_t rnd(uint64_t n) {
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return rng % n;
}

static uint64_t gap_sum[3]; /* by entry: GPU, queue 0, queue 1 */
static void on_gap(void *arg, gap_res *r, uint64_t s, uint64_t e, uint32_t before, uint32_t after) {
  (void)arg, (void)before, (void)after;
  gap_sum[r->queue == GAP_DEVICE ? 0 : 1 + r->queue] += e - s;
}

typedef struct op {
  uint64_t s, e;
  int kind; /* CV_KERNEL, CV_BARRIER, CV_COPY */
  uint32_t queue;
} op;

/* an_attribute on the ops of queue q (UINT32_MAX: all) that the window lets in */
static bool attribute(const op *ops, size_t n, uint32_t q, uint64_t ps, uint64_t ws, uint64_t we,
                      an_result *r) {
  static an_op v[MAXOPS];
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if (ops[i].s < ws || ops[i].s > we) continue;
    if (q != UINT32_MAX && (ops[i].kind == CV_COPY || ops[i].queue != q)) continue;
    v[k++] = (an_op){.start = ops[i].s,
                     .end = ops[i].e,
                     .kind = ops[i].kind == CV_KERNEL ? AN_OP_KERNEL
                             : ops[i].kind == CV_COPY ? AN_OP_COPY
                                                      : AN_OP_BARRIER,
                     .queue = ops[i].kind == CV_COPY ? AN_NO_QUEUE : ops[i].queue};
  }
  an_gpu g = {.proc_start = ps, .window_start = ws, .window_end = we, .ops = v, .nops = k};
  return an_attribute(&g, r);
}

int main(void) {
  int compared = 0, windowed = 0, differ = 0;
  for (int round = 0; round < 500; round++) {
    cv_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    cv_proc proc;
    memset(&proc, 0, sizeof proc);
    ctx.procs = &proc;
    ctx.nprocs = 1;
    ctx.strs = rtg_strtab_new();
    ctx.window_end = UINT64_MAX;
    if (rnd(3) == 0) {
      ctx.window_start = 1000 + rnd(3000);
      ctx.window_end = ctx.window_start + 500 + rnd(4000);
      windowed++;
    }
    proc.boot_ns = rnd(2) ? 1 + rnd(1500) : 0;
    static op ops[MAXOPS];
    size_t n = 1 + rnd(MAXOPS);
    for (size_t i = 0; i < n; i++) {
      uint64_t s = 1000 + rnd(8000);
      int k = (int)rnd(5);
      ops[i] = (op){s, s + rnd(300),
                    k < 3    ? CV_KERNEL
                    : k == 3 ? CV_COPY
                             : CV_BARRIER,
                    (uint32_t)rnd(2)};
    }
    tm_index t;
    tm_init(&t, &ctx, 0, true, on_gap, NULL);
    memset(gap_sum, 0, sizeof gap_sum);
    /* a call before every op when there is no header: the process's start */
    uint64_t call = 500 + rnd(400);
    cv_event c = {.type = CV_HIP_API, .start = call, .end = call + 10, .name = "hipMalloc"};
    tm_event(&t, &c);
    uint64_t ps = proc.boot_ns ? proc.boot_ns : call;
    for (size_t i = 0; i < n; i++) { /* shuffled; the driver's window */
      size_t j = i + rnd(n - i);
      op x = ops[i];
      ops[i] = ops[j], ops[j] = x;
      if (ops[i].s < ctx.window_start || ops[i].s > ctx.window_end) continue;
      cv_event ev = {.type = ops[i].kind,
                     .start = ops[i].s,
                     .end = ops[i].e,
                     .name = "k",
                     .device = 0,
                     .queue = ops[i].queue};
      tm_event(&t, &ev);
    }
    tm_finish(&t);
    for (uint32_t i = 0; i < t.x.n; i++) {
      const tm_res *r = (const tm_res *)t.x.r[i];
      uint32_t q = r->base.queue == GAP_DEVICE ? UINT32_MAX : (uint32_t)r->base.queue;
      an_result a;
      bool ok = attribute(ops, n, q, ps, ctx.window_start, ctx.window_end, &a);
      CHECK(ok == r->ok);
      if (!ok || !r->ok) continue;
      compared++;
      bool same = r->t.span_start == a.span_start && r->t.span_end == a.span_end &&
                  r->t.busy == a.busy && r->t.idle == a.idle &&
                  (q != UINT32_MAX || r->t.copy_busy == a.copy_busy);
      if (!same) differ++;
      CHECK_U64(r->t.span, a.span);
      CHECK_U64(r->t.busy, a.busy);
      CHECK_U64(r->t.idle, a.idle);
      if (q == UINT32_MAX) CHECK_U64(r->t.copy_busy, a.copy_busy);
      CHECK_U64(gap_sum[q == UINT32_MAX ? 0 : 1 + q], r->t.idle);
    }
    tm_free(&t);
    rtg_strtab_free(ctx.strs);
  }
  printf("test_convert_timemodel: %d GPUs and queues compared (%d rounds windowed), %d differ\n",
         compared, windowed, differ);
  CHECK(compared > 1000);
  return check_done("test_convert_timemodel");
}
