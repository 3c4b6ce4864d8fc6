/* rtg-convert --analyze's time model (src/convert/analyze/attrib.c,
 * ivset.c): interval unions and differences, the precedence of the idle
 * causes on a hand-made GPU whose every cause is known to the nanosecond,
 * the --start/--end window, and on random GPUs that the causes always sum
 * to idle exactly and that busy and the GPU-side causes match a
 * nanosecond-by-nanosecond model. */
#include <stdlib.h>

#include "attrib.h"
#include "check.h"
#include "ivset.h"

static void test_ivset(void) {
  an_ivset a = {0}, b = {0}, o = {0};
  an_iv_add(&a, 10, 20);
  an_iv_add(&a, 15, 30);
  an_iv_add(&a, 30, 35); /* touching: merged */
  an_iv_add(&a, 50, 60);
  an_iv_add(&a, 70, 70); /* empty: dropped */
  an_iv_normalize(&a);
  CHECK_U64(a.n, 2);
  CHECK_U64(an_iv_total(&a), 35);
  an_iv_add(&b, 0, 12);
  an_iv_add(&b, 20, 22);
  an_iv_add(&b, 55, 100);
  an_iv_normalize(&b);
  an_iv_subtract(&a, &b, &o);
  CHECK_U64(o.n, 3); /* [12,20) [22,35) [50,55) */
  CHECK_U64(an_iv_total(&o), 8 + 13 + 5);
  an_iv_intersect(&a, &b, &o);
  CHECK_U64(an_iv_total(&o), 2 + 2 + 5);
  an_iv_clip(&a, 12, 55);
  CHECK_U64(an_iv_total(&a), 23 + 5);
  an_iv_free(&a), an_iv_free(&b), an_iv_free(&o);
}

enum { NAME_K, NAME_SYNC, NAME_MALLOC, NAME_WAIT, NAME_LAUNCH };

/* Every cause once (times in ns):
 *   0..100    startup (K1's enqueue at 90 is in it)
 *   100..200  K1                      200..260  a barrier waits: dependency
 *   260..300  K2 (enqueued at 250)    300..350  a copy alone: copy_only
 *   350..380  tid 7 (K3's): 350..360 in a sync (host_sync), 360..365 in
 *             nothing, 365..370 in hipMalloc (host_api), 370..380 nothing
 *   380..400  K3 enqueued, not started: launch_latency
 *   400..450  K3
 *   450..500  tid 9 (K4's; tid 7 in a sync then does not count): 450..470
 *             in hipLaunchKernel with a wait nested in it (host_api),
 *             470..500 in nothing
 *   500..600  K4 */
static an_op ops_base[] = {
    {.start = 100, .end = 200, .enq = 90, .tid = 7, .kind = AN_OP_KERNEL},
    {.start = 200, .end = 260, .tid = 7, .kind = AN_OP_BARRIER, .deps = true},
    {.start = 260, .end = 300, .enq = 250, .tid = 7, .kind = AN_OP_KERNEL},
    {.start = 300, .end = 350, .tid = 7, .kind = AN_OP_COPY},
    {.start = 400, .end = 450, .enq = 380, .tid = 7, .kind = AN_OP_KERNEL},
    {.start = 500, .end = 600, .tid = 9, .kind = AN_OP_KERNEL},
    {.start = 590, .end = 590, .tid = 9, .kind = AN_OP_BARRIER}, /* no deps: no wait */
};
static an_call calls_base[] = {
    {.tid = 7, .start = 20, .end = 80, .name = NAME_MALLOC},
    {.tid = 7, .start = 340, .end = 360, .name = NAME_SYNC, .sync = true},
    {.tid = 7, .start = 365, .end = 370, .name = NAME_MALLOC},
    {.tid = 7, .start = 450, .end = 500, .name = NAME_SYNC, .sync = true},
    {.tid = 9, .start = 440, .end = 470, .name = NAME_LAUNCH},
    {.tid = 9, .start = 445, .end = 460, .name = NAME_WAIT, .sync = true},
};

static void run_base(uint64_t ws, uint64_t we, an_result *r) {
  an_op ops[sizeof ops_base / sizeof *ops_base];
  an_call calls[sizeof calls_base / sizeof *calls_base];
  memcpy(ops, ops_base, sizeof ops);
  memcpy(calls, calls_base, sizeof calls);
  an_gpu g = {.proc_start = 1, /* (0 would mean unknown: the first op) */
              .window_start = ws,
              .window_end = we,
              .default_tid = 1,
              .ops = ops,
              .nops = sizeof ops / sizeof *ops,
              .calls = calls,
              .ncalls = sizeof calls / sizeof *calls};
  CHECK(an_attribute(&g, r));
}

static uint64_t sum_causes(const an_result *r) {
  uint64_t s = 0;
  for (int c = 0; c < AN_NCAUSES; c++) s += r->cause[c];
  return s;
}

static void test_precedence(void) {
  an_result r;
  run_base(0, UINT64_MAX, &r);
  CHECK_U64(r.span, 599);
  CHECK_U64(r.busy, 100 + 40 + 50 + 100);
  CHECK_U64(r.copy_busy, 50);
  CHECK_U64(r.idle, 599 - 290);
  CHECK_U64(r.cause[AN_STARTUP], 99);
  CHECK_U64(r.cause[AN_DEPENDENCY], 60);
  CHECK_U64(r.cause[AN_COPY_ONLY], 50);
  CHECK_U64(r.cause[AN_LAUNCH_LATENCY], 20);
  CHECK_U64(r.cause[AN_HOST_SYNC], 10);
  CHECK_U64(r.cause[AN_HOST_API], 5 + 20);
  CHECK_U64(r.cause[AN_HOST_OUTSIDE_API], 15 + 30);
  CHECK_U64(sum_causes(&r), r.idle);
  /* host_api by call: hipLaunchKernel of tid 9 first (20), then hipMalloc */
  CHECK_U64(r.ndetail[AN_HOST_API], 2);
  CHECK_U64(r.detail[AN_HOST_API][0].key, NAME_LAUNCH);
  CHECK_U64(r.detail[AN_HOST_API][0].tid, 9);
  CHECK_U64(r.detail[AN_HOST_API][1].key, NAME_MALLOC);
  /* the longest time in no call: tid 9, after hipLaunchKernel */
  CHECK_U64(r.detail[AN_HOST_OUTSIDE_API][0].tid, 9);
  CHECK_U64(r.detail[AN_HOST_OUTSIDE_API][0].key, (uint64_t)(NAME_LAUNCH + 1) << 32);

  /* the window [150, 480] */
  run_base(150, 480, &r);
  CHECK_U64(r.span, 330);
  CHECK_U64(r.busy, 50 + 40 + 50);
  CHECK_U64(r.cause[AN_STARTUP], 0);
  CHECK_U64(r.cause[AN_DEPENDENCY], 60);
  CHECK_U64(r.cause[AN_HOST_API], 5 + 20);
  CHECK_U64(r.cause[AN_HOST_OUTSIDE_API], 15 + 10);
  CHECK_U64(sum_causes(&r), r.idle);

  CHECK(an_is_sync_call("hipDeviceSynchronize"));
  CHECK(an_is_sync_call("hipMemcpy"));
  CHECK(an_is_sync_call("hipMemsetD32"));
  CHECK(an_is_sync_call("hsa_signal_wait_scacquire"));
  CHECK(!an_is_sync_call("hipMemcpyAsync"));
  CHECK(!an_is_sync_call("hipLaunchKernel"));
  CHECK(!an_is_sync_call("hipMalloc"));
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(uint64_t n) {
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return rng % n;
}

#define T 3000

/* Random GPUs: causes sum to idle; busy and the causes that need no
 * thread match a model that looks at every nanosecond. */
static void test_random(void) {
  static an_op ops[64];
  static an_call calls[64];
  static unsigned char kern[T], copy[T], dep[T], launch[T];
  for (int round = 0; round < 300; round++) {
    memset(kern, 0, sizeof kern), memset(copy, 0, sizeof copy);
    memset(dep, 0, sizeof dep), memset(launch, 0, sizeof launch);
    size_t nops = 1 + rnd(40), ncalls = rnd(60);
    uint64_t first = T, last = 0;
    for (size_t i = 0; i < nops; i++) {
      uint64_t s = 200 + rnd(T - 400), e = s + rnd(150);
      an_op *o = &ops[i];
      *o = (an_op){.start = s, .end = e, .tid = 1 + rnd(3), .kind = (uint8_t)rnd(3)};
      o->deps = o->kind == AN_OP_BARRIER && rnd(2);
      if (o->kind != AN_OP_BARRIER && rnd(2)) o->enq = s > 100 ? s - rnd(100) : 0;
      if (s < first) first = s;
      if (e > last) last = e;
      for (uint64_t t = s; t < e; t++) {
        if (o->kind == AN_OP_KERNEL) kern[t] = 1;
        if (o->kind == AN_OP_COPY) copy[t] = 1;
        if (o->deps) dep[t] = 1;
      }
      if (o->enq)
        for (uint64_t t = o->enq; t < s; t++) launch[t] = 1;
    }
    for (size_t i = 0; i < ncalls; i++) {
      uint64_t s = rnd(T), e = s + rnd(200);
      calls[i] = (an_call){.tid = 1 + rnd(3), .start = s, .end = e, .name = (uint32_t)rnd(4)};
      calls[i].sync = calls[i].name == 0;
    }
    uint64_t ps = rnd(200) + 1;
    an_gpu g = {.proc_start = ps,
                .window_end = UINT64_MAX,
                .default_tid = 1,
                .ops = ops,
                .nops = nops,
                .calls = calls,
                .ncalls = ncalls};
    an_result r;
    if (!an_attribute(&g, &r)) continue;
    uint64_t busy = 0, cause[4] = {0};
    for (uint64_t t = ps; t < last; t++) {
      if (kern[t]) {
        busy++;
        continue;
      }
      int c = t < first ? 0 : dep[t] ? 1 : copy[t] ? 2 : launch[t] ? 3 : -1;
      if (c >= 0) cause[c]++;
    }
    CHECK_U64(r.span, last - ps);
    CHECK_U64(r.busy, busy);
    CHECK_U64(r.idle, last - ps - busy);
    CHECK_U64(sum_causes(&r), r.idle);
    for (int c = 0; c < 4; c++) CHECK_U64(r.cause[c], cause[c]);
  }
}

int main(void) {
  test_ivset();
  test_precedence();
  test_random();
  return check_done("test_analyze");
}
