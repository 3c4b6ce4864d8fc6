/* rtg-convert --analyze's time model (src/convert/analyze/attrib.c,
 * ivset.c): interval unions and differences, the precedence of the idle
 * causes on a hand-made GPU whose every cause is known to the nanosecond,
 * the --start/--end window, and on random GPUs that the causes always sum
 * to idle exactly and that busy and the GPU-side causes match a
 * nanosecond-by-nanosecond model. */
#include <stdlib.h>

#include "attrib.h"
#include "check.h"
#include "critical.h"
#include "ivset.h"
#include "launch.h"
#include "memory.h"
#include "rules.h"
#include "shared/memuse.h"
#include "sort.h"

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

static int iv_by_end(const void *a, const void *b) {
  const an_iv *x = a, *y = b;
  return x->e < y->e ? -1 : x->e > y->e;
}

/* Intervals that come by end (not by start) take another way to their
 * union than those in any order: the same union, every interval of it
 * (touching ones merged, gaps of 1 ns kept). */
static void test_ivset_by_end(void) {
  srand(7);
  for (int round = 0; round < 300; round++) {
    size_t n = 2 + (size_t)(rand() % 200);
    an_iv *v = malloc(n * sizeof *v);
    uint64_t span = 50 + (uint64_t)(rand() % 3000);
    for (size_t i = 0; i < n; i++) {
      uint64_t s = (uint64_t)rand() % span, len = 1 + (uint64_t)rand() % (round % 3 ? 20 : 400);
      v[i] = (an_iv){s, s + len};
    }
    qsort(v, n, sizeof *v, iv_by_end);
    an_ivset a = {0}, b = {0};
    for (size_t i = 0; i < n; i++) an_iv_add(&a, v[i].s, v[i].e);
    for (size_t i = n; i-- > 0;) an_iv_add(&b, v[i].s, v[i].e); /* neither order */
    an_iv_normalize(&a);
    an_iv_normalize(&b);
    CHECK_U64(a.n, b.n);
    int same = a.n == b.n;
    for (size_t i = 0; same && i < a.n; i++)
      same = a.v[i].s == b.v[i].s && a.v[i].e == b.v[i].e && (!i || a.v[i].s > a.v[i - 1].e);
    CHECK(same);
    an_iv_free(&a), an_iv_free(&b);
    free(v);
  }
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

/* Launch decomposition: api, queue and kernel times per name and queue,
 * launch-bound kernels; its queue-time outlier in the queue_delay rule. */
static void test_launch(void) {
  an_op ops[] = {
      /* name 1 on queue 0: api 10, queue 5, kernel 100 */
      {.start = 1000, .end = 1100, .enq = 995, .api_s = 980, .api_e = 990, .name = 1},
      {.start = 2000, .end = 2100, .enq = 1995, .api_s = 1980, .api_e = 1990, .name = 1},
      /* queue time 200000: over 10 x the median (5) and 50 us */
      {.start = 300000, .end = 300100, .enq = 100000, .api_s = 99980, .api_e = 99990, .name = 1},
      /* name 2 on queue 1: kernel 3, api 20: launch-bound */
      {.start = 5000,
       .end = 5003,
       .enq = 4990,
       .api_s = 4970,
       .api_e = 4990,
       .name = 2,
       .queue = 1},
      {.start = 6000, .end = 6003, .api_s = 5970, .api_e = 5990, .name = 2, .queue = 1},
      {.start = 7000, .end = 7050, .kind = AN_OP_BARRIER, .name = 3},
      {.start = 8000, .end = 9000, .kind = AN_OP_COPY, .name = 4, .queue = AN_NO_QUEUE},
  };
  an_launch l;
  an_launch_compute(ops, sizeof ops / sizeof *ops, &l);
  CHECK_U64(l.kernels, 5);
  CHECK_U64(l.nname, 2);
  CHECK_U64(l.by_name[0].key, 1); /* the most kernel time first */
  CHECK_U64(l.by_name[0].count, 3);
  CHECK_U64(l.by_name[0].api.median, 10);
  CHECK_U64(l.by_name[0].queue.n, 3);
  CHECK_U64(l.by_name[0].queue.median, 5);
  CHECK_U64(l.by_name[0].queue.p95, 200000);
  CHECK_U64(l.by_name[0].queue.max, 200000);
  CHECK_U64(l.by_name[0].kernel.total, 300);
  CHECK_U64(l.by_name[0].launch_bound, 0);
  CHECK_U64(l.by_name[1].launch_bound, 2);
  CHECK_U64(l.by_name[1].queue.n, 1); /* the second has no enqueue time */
  CHECK_U64(l.launch_bound, 2);
  CHECK_U64(l.nqueue, 2);
  CHECK_U64(l.by_queue[1].key, 1);
  CHECK_U64(l.by_queue[1].count, 2);
  CHECK(an_launch_queue(&l, 1) == &l.by_queue[1]);
  CHECK(!an_launch_queue(&l, 7));
  /* the queue-time outlier: the queue_delay rule's one instance */
  an_rule r[AN_NRULES];
  an_result res = {.span = 400000};
  an_rules_gpu(ops, sizeof ops / sizeof *ops, &res, &l, r);
  CHECK_U64(r[AN_RULE_QUEUE_DELAY].count, 1);
  CHECK_U64(r[AN_RULE_QUEUE_DELAY].worst[0].dur, 200000);
  CHECK_U64(r[AN_RULE_QUEUE_DELAY].worst[0].start + r[AN_RULE_QUEUE_DELAY].worst[0].dur, 300000);
  an_launch_free(&l);
}

static int u64_cmp(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* The percentiles of random kernel times (with many equal values) against
 * the nearest rank of the sorted times. */
static void test_launch_random(void) {
  static an_op ops[1000];
  static uint64_t ref[1000];
  uint64_t seed = 12345;
  for (int round = 0; round < 200; round++) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    size_t n = 1 + (seed >> 33) % 1000;
    uint64_t spread = 1 + (seed >> 20) % 50;
    for (size_t i = 0; i < n; i++) {
      seed = seed * 6364136223846793005ull + 1442695040888963407ull;
      uint64_t d = (seed >> 33) % spread;
      ops[i] = (an_op){.start = 1000 * i, .end = 1000 * i + d, .name = 7};
      ref[i] = d;
    }
    qsort(ref, n, sizeof *ref, u64_cmp);
    an_launch l;
    an_launch_compute(ops, n, &l);
    CHECK_U64(l.by_name[0].kernel.median, ref[(50 * n + 99) / 100 - 1]);
    CHECK_U64(l.by_name[0].kernel.p95, ref[(95 * n + 99) / 100 - 1]);
    CHECK_U64(l.by_name[0].kernel.max, ref[n - 1]);
    an_launch_free(&l);
  }
}

enum { C_LAUNCH, C_SYNC, C_MALLOC, C_COPY };

/* The rules of a process (calls) and of a GPU (ops). */
static void test_rules(void) {
  /* tid 1: 4 x (launch, sync), a hipMalloc between launches, one before
   * the first launch and one after the last (outside the loop); tid 2: a
   * launch, then a synchronous copy with a nested wait */
  an_call calls[] = {
      {.tid = 1, .start = 0, .end = 5, .name = C_MALLOC, .flags = AN_CALL_ALLOC},
      {.tid = 1, .start = 10, .end = 12, .name = C_LAUNCH, .flags = AN_CALL_LAUNCHED},
      {.tid = 1, .start = 13, .end = 20, .name = C_SYNC, .flags = AN_CALL_SYNC},
      {.tid = 1, .start = 21, .end = 30, .name = C_MALLOC, .flags = AN_CALL_ALLOC},
      {.tid = 1, .start = 30, .end = 32, .name = C_LAUNCH, .flags = AN_CALL_LAUNCHED},
      {.tid = 1, .start = 33, .end = 50, .name = C_SYNC, .flags = AN_CALL_SYNC},
      {.tid = 1, .start = 50, .end = 52, .name = C_LAUNCH, .flags = AN_CALL_LAUNCHED},
      {.tid = 1, .start = 53, .end = 60, .name = C_SYNC, .flags = AN_CALL_SYNC},
      {.tid = 1, .start = 60, .end = 62, .name = C_LAUNCH, .flags = AN_CALL_LAUNCHED},
      {.tid = 1, .start = 63, .end = 70, .name = C_SYNC, .flags = AN_CALL_SYNC},
      {.tid = 1, .start = 80, .end = 90, .name = C_MALLOC, .flags = AN_CALL_ALLOC},
      {.tid = 2, .start = 40, .end = 41, .name = C_LAUNCH, .flags = AN_CALL_LAUNCHED},
      {.tid = 2, .start = 42, .end = 48, .name = C_COPY, .flags = AN_CALL_COPY | AN_CALL_SYNC},
      {.tid = 2, .start = 43, .end = 47, .name = C_SYNC, .flags = AN_CALL_SYNC},
  };
  an_rule r[AN_NRULES];
  an_rules_process(calls, sizeof calls / sizeof *calls, 10, 61, r);
  an_rule *s = &r[AN_RULE_SYNC_AFTER_LAUNCH];
  CHECK_U64(s->of, 5);
  CHECK_U64(s->count, 5); /* tid 2's copy is a synchronisation too */
  CHECK_U64(s->cost, 7 + 17 + 7 + 7 + 6);
  CHECK(s->fired);
  CHECK_U64(s->worst[0].dur, 17);
  CHECK_U64(s->worst[0].start, 33);
  CHECK_U64(r[AN_RULE_ALLOC_IN_LOOP].count, 1);
  CHECK_U64(r[AN_RULE_ALLOC_IN_LOOP].cost, 9);
  CHECK(r[AN_RULE_ALLOC_IN_LOOP].fired);
  CHECK_U64(r[AN_RULE_SYNC_COPY].count, 1); /* the nested wait is not a second one */
  CHECK_U64(r[AN_RULE_SYNC_COPY].worst[0].tid, 2);

  /* a GPU: startup 0..1000, 50 chunks of 100 over 1000..6000; kernels keep
   * 1000..3000 busy, 3000..5000 has one kernel of 10 per chunk (10 %),
   * 5000..6000 busy */
  static an_op ops[64];
  size_t n = 0;
  ops[n++] = (an_op){.start = 1000, .end = 3000, .api_s = 900, .api_e = 950, .name = 1};
  for (uint64_t t = 3000; t < 5000; t += 100)
    ops[n++] = (an_op){.start = t, .end = t + 10, .api_s = t - 50, .api_e = t - 10, .name = 2};
  ops[n++] = (an_op){.start = 5000, .end = 6000, .name = 1};
  an_call none[1];
  an_gpu g = {.proc_start = 1, .window_end = UINT64_MAX, .ops = ops, .nops = n, .calls = none};
  an_result res;
  CHECK(an_attribute(&g, &res));
  an_launch l;
  an_launch_compute(ops, n, &l);
  an_rules_gpu(ops, n, &res, &l, r);
  an_rule *lb = &r[AN_RULE_LAUNCH_BOUND];
  CHECK_U64(lb->of, 22);
  CHECK_U64(lb->count, 20); /* kernels of 10 launched by calls of 40 */
  CHECK_U64(lb->cost, 20 * 30);
  CHECK(lb->fired);
  an_rule *low = &r[AN_RULE_LOW_UTILIZATION];
  CHECK_U64(low->count, 1);
  CHECK_U64(low->worst[0].start, 3000);
  CHECK_U64(low->worst[0].dur, 2000);
  CHECK_U64(low->worst[0].value, 200);
  CHECK_U64(low->cost, 2000 - 200);
  CHECK(low->fired);
  CHECK_U64(r[AN_RULE_STARTUP].cost, 999);
  CHECK(!r[AN_RULE_STARTUP].fired); /* 999 of 5999: under 20 % */
  an_launch_free(&l);
}

/* A barrier that waits counts from when its queue reached it. */
static void test_barrier_wait(void) {
  an_op ops[] = {
      {.start = 100, .end = 200, .name = 1},
      /* completes at 500 (its GPU times), reached at 200 */
      {.start = 500, .end = 500, .enq = 200, .kind = AN_OP_BARRIER, .deps = true},
      {.start = 500, .end = 600, .enq = 210, .name = 1},
  };
  an_call none[1];
  an_gpu g = {.proc_start = 100, .window_end = UINT64_MAX, .ops = ops, .nops = 3, .calls = none};
  an_result r;
  CHECK(an_attribute(&g, &r));
  CHECK_U64(r.cause[AN_DEPENDENCY], 300);
  CHECK_U64(r.cause[AN_LAUNCH_LATENCY], 0);
}

/* The critical path of a thread that launches K1, waits for it, works on
 * the CPU, launches K2; and its what-if with K1 twice as fast. */
static void test_critical(void) {
  enum { A = 10, S, B };
  an_call calls[] = {
      {.tid = 1, .start = 0, .end = 10, .name = A, .flags = AN_CALL_LAUNCHED},
      {.tid = 1, .start = 15, .end = 125, .name = S, .flags = AN_CALL_SYNC},
      {.tid = 1, .start = 16, .end = 120, .name = 99, .flags = AN_CALL_SYNC}, /* nested */
      {.tid = 1, .start = 130, .end = 140, .name = B, .flags = AN_CALL_LAUNCHED},
  };
  an_op ops[] = {
      {.start = 20, .end = 120, .enq = 8, .tid = 1, .api_s = 0, .api_e = 10, .name = 1},
      {.start = 150, .end = 160, .enq = 140, .tid = 1, .api_s = 130, .api_e = 140, .name = 2},
      /* another queue's kernel, off the path */
      {.start = 30, .end = 40, .enq = 9, .tid = 1, .api_s = 0, .api_e = 10, .name = 3, .queue = 1},
  };
  an_cp_gpu gpu = {.ops = ops, .nops = 3};
  an_cp_result r;
  CHECK(an_critical_path(0, calls, 4, false, &gpu, 1, &r));
  CHECK_U64(r.length, 160);
  CHECK_U64(r.cat[AN_CP_KERNEL], 110);
  CHECK_U64(r.cat[AN_CP_API], 10 + 5 + 8); /* B to K2's enqueue, S's return, A to K1's */
  CHECK_U64(r.cat[AN_CP_QUEUE], 10 + 12);  /* K2's and K1's queue times */
  CHECK_U64(r.cat[AN_CP_HOST_CPU], 5);     /* between S and B */
  uint64_t sum = 0;
  for (int c = 0; c < AN_CP_NCATS; c++) sum += r.cat[c];
  CHECK_U64(sum, r.length);
  CHECK_U64(r.nkernels, 2);
  CHECK_U64(r.kernels[0].name, 1);
  CHECK_U64(r.kernels[0].ns, 100);
  CHECK(r.nwhatif >= 1);
  CHECK_U64(r.whatif[0].name, 1);
  CHECK_U64(r.whatif[0].length, 110); /* K1 ends at 70, S at 75, B starts at 80 */
}

/* A barrier's dependency on the critical path is the op that signalled
 * it (A), not the op of another queue that ended last before it (B). */
static void test_critical_dep_signal(void) {
  an_op ops[] = {
      {.start = 0, .end = 100, .name = 1, .queue = 0},
      {.start = 0, .end = 150, .name = 2, .queue = 1},
      {.start = 160, .end = 160, .kind = AN_OP_BARRIER, .deps = true, .queue = 2},
      {.start = 160, .end = 200, .name = 3, .queue = 2},
  };
  an_call none[1] = {{0}};
  an_cp_dep dep = {.op = 2, .src_gpu = 0, .src_op = 0};
  an_cp_gpu gpu = {.ops = ops, .nops = 4, .deps = &dep, .ndeps = 1};
  an_cp_result r;
  CHECK(an_critical_path(0, none, 0, false, &gpu, 1, &r));
  CHECK_U64(r.length, 200);
  CHECK_U64(r.cat[AN_CP_KERNEL], 100 + 40);
  CHECK_U64(r.kernels[0].name, 1);
  gpu.ndeps = 0; /* no signal known: the last op to end on another queue */
  CHECK(an_critical_path(0, none, 0, false, &gpu, 1, &r));
  CHECK_U64(r.cat[AN_CP_KERNEL], 150 + 40);
  CHECK_U64(r.kernels[0].name, 2);
}

/* A synchronisation's wake-up on the critical path is the op its thread
 * waited for (A), not the op of the process that ended last within it (B). */
static void test_critical_wake_waiter(void) {
  an_call calls[] = {
      {.tid = 1, .start = 0, .end = 10, .name = 10, .flags = AN_CALL_LAUNCHED},
      {.tid = 1, .start = 10, .end = 20, .name = 11, .flags = AN_CALL_LAUNCHED},
      {.tid = 1, .start = 20, .end = 200, .name = 12, .flags = AN_CALL_SYNC},
  };
  an_op ops[] = {
      {.start = 25,
       .end = 190,
       .enq = 18,
       .tid = 1,
       .api_s = 10,
       .api_e = 20,
       .name = 2,
       .queue = 1},
      {.start = 30, .end = 150, .enq = 8, .tid = 1, .api_s = 0, .api_e = 10, .name = 1},
  };
  uint32_t waiter[] = {0, 1};
  an_cp_gpu gpu = {.ops = ops, .nops = 2, .waiter = waiter};
  an_cp_result r;
  CHECK(an_critical_path(0, calls, 3, false, &gpu, 1, &r));
  CHECK_U64(r.length, 200);
  CHECK_U64(r.kernels[0].name, 1);
  CHECK_U64(r.cat[AN_CP_KERNEL], 120);
  gpu.waiter = NULL; /* no waiter recorded: the last op to end within it */
  CHECK(an_critical_path(0, calls, 3, false, &gpu, 1, &r));
  CHECK_U64(r.kernels[0].name, 2);
  CHECK_U64(r.cat[AN_CP_KERNEL], 165);
}

/* Pinned and device ranges from the calls' arguments, and the copies whose
 * host side is in neither. */
static void test_pageable(void) {
  static const struct {
    const char *name, *args;
    uint64_t t;
  } calls[] = {
      {"hipHostMalloc", "(ptr=0x10000, size=4096, flags=0)", 1},
      {"hipMalloc", "(ptr=0x900000, size=65536)", 2},
      {"hipMemcpyAsync", "(dst=0x900000, src=0x10800, size=64, kind=HostToDevice, stream=0)", 3},
      {"hipMemcpyAsync", "(dst=0x900000, src=0x50000, size=64, kind=HostToDevice, stream=0)", 4},
      {"hipMemcpyDtoHAsync", "(dst=0x60000, src=0x900000, size=64, stream=0)", 5},
      {"hipMemcpyAsync", "(dst=0x900000, src=0x10000, size=64, kind=Default, stream=0)", 6},
      {"hipMemcpyAsync", "(dst=0x900010, src=0x900000, size=64, kind=DeviceToDevice)", 7},
      {"hipHostFree", "(ptr=0x10000)", 8},
      {"hipMemcpyAsync", "(dst=0x900000, src=0x10000, size=64, kind=HostToDevice, stream=0)", 9},
      {"hipHostRegister", "(ptr=0x70000, size=8192, flags=0)", 10},
      {"hipMemcpyHtoDAsync", "(dst=0x900000, src=0x71000, size=64, stream=0)", 11},
      {"hipLaunchKernel", "(func=0x1)", 12},
  };
  an_mem v[16];
  size_t n = 0;
  uint64_t unchecked = 0;
  for (size_t i = 0; i < sizeof calls / sizeof *calls; i++) {
    bool copy;
    an_mem m;
    if (an_mem_of_call(calls[i].name, calls[i].args, &m, &copy)) {
      m.start = calls[i].t * 100, m.end = m.start + calls[i].t, m.name = (uint32_t)i;
      v[n++] = m;
    }
  }
  bool copy;
  an_mem m;
  CHECK(!an_mem_of_call("hipMemcpyAsync", NULL, &m, &copy) && copy);
  unchecked++;
  an_rule r;
  an_rule_pageable(v, n, unchecked, &r);
  CHECK(r.evaluated);
  CHECK_U64(r.of, 6);    /* device to device is no staging copy */
  CHECK_U64(r.count, 3); /* 0x50000, 0x60000, and 0x10000 after its free */
  CHECK_U64(r.cost, 4 + 5 + 9);
  CHECK_U64(r.unchecked, 1);
  CHECK(r.fired);
  CHECK_U64(r.worst[0].name, 8); /* the longest: the copy after hipHostFree */
}

/* With memory records, the ranges come from them alone: a CPU agent's
 * pool allocation and a lock are pinned until freed or unlocked, a GPU's
 * pool allocation is device memory; a range the calls' arguments gave and
 * the records lack is dropped; the copies stay; records of another
 * process do not count. */
static void test_pageable_records(void) {
  static const struct {
    const char *name, *args;
    uint64_t t;
  } calls[] = {
      {"hipHostMalloc", "(ptr=0x50000, size=4096, flags=0)", 2},
      {"hipMemcpyAsync", "(dst=0x900000, src=0x10800, size=64, kind=HostToDevice, stream=0)", 3},
      {"hipMemcpyAsync", "(dst=0x900000, src=0x50000, size=64, kind=HostToDevice, stream=0)", 4},
      {"hipMemcpyAsync", "(dst=0x900010, src=0x900000, size=64, kind=Default, stream=0)", 5},
      {"hipMemcpyHtoDAsync", "(dst=0x900000, src=0x71000, size=64, stream=0)", 11},
      {"hipMemcpyHtoDAsync", "(dst=0x900000, src=0x71000, size=64, stream=0)", 13},
      {"hipMemcpyHtoDAsync", "(dst=0x900000, src=0x20000, size=64, stream=0)", 14},
  };
  an_mem *v = NULL;
  size_t n = 0, cap = 0;
  for (size_t i = 0; i < sizeof calls / sizeof *calls; i++) {
    bool copy;
    an_mem m;
    if (!an_mem_of_call(calls[i].name, calls[i].args, &m, &copy)) continue;
    m.start = calls[i].t * 100, m.end = m.start + calls[i].t, m.name = (uint32_t)i;
    if (n == cap) v = realloc(v, (cap = cap ? 2 * cap : 16) * sizeof *v);
    v[n++] = m;
  }
  cv_mem_rec recs[] = {
      {.start = 100,
       .end = 101,
       .addr = 0x10000,
       .size = 4096,
       .op = CV_MEM_ALLOC,
       .kind = CV_MEMK_HOST,
       .has_agent = true},
      {.start = 150,
       .end = 151,
       .addr = 0x900000,
       .size = 65536,
       .op = CV_MEM_ALLOC,
       .kind = CV_MEMK_DEVICE,
       .has_agent = true,
       .agent = 1},
      {.start = 200,
       .end = 201,
       .addr = 0x70000,
       .size = 8192,
       .op = CV_MEM_LOCK,
       .kind = CV_MEMK_PINNED,
       .has_agent = true},
      {.start = 1200,
       .end = 1201,
       .addr = 0x70000,
       .size = 8192,
       .op = CV_MEM_UNLOCK,
       .kind = CV_MEMK_PINNED,
       .matched = true},
      {.proc = 1,
       .start = 100,
       .end = 101,
       .addr = 0x20000,
       .size = 4096,
       .op = CV_MEM_ALLOC,
       .kind = CV_MEMK_HOST,
       .has_agent = true},
  };
  cv_mem mem = {.v = recs, .n = sizeof recs / sizeof *recs, .resolved = true};
  CHECK(!an_mem_take_records(&v, &n, &cap, &mem, 2)); /* no record of process 2 */
  CHECK_U64(n, 7);
  CHECK(an_mem_take_records(&v, &n, &cap, &mem, 0));
  CHECK_U64(n, 6 + 4); /* the six copies, the four records */
  an_rule r;
  an_rule_pageable(v, n, 0, &r);
  CHECK_U64(r.of, 6); /* the Default copy, device to device memory, is not flagged */
  /* 0x50000 (pinned by its call's arguments only), 0x71000 after its
   * unlock, 0x20000 (pinned in another process) */
  CHECK_U64(r.count, 3);
  CHECK_U64(r.cost, 4 + 13 + 14);
  free(v);
}

/* A managed range (an SVM range, kind managed) is not pinned host memory
 * but memory the GPU reaches as device memory: a copy from it is not
 * pageable while it lives; after its free, a copy from its addresses is. */
static void test_pageable_managed(void) {
  static const struct {
    const char *name, *args;
    uint64_t t;
  } calls[] = {
      {"hipMemcpyHtoDAsync", "(dst=0x900000, src=0x7f000100, size=64, stream=0)", 3},
      {"hipMemcpyAsync", "(dst=0x7f000200, src=0x900000, size=64, kind=Default, stream=0)", 4},
      {"hipMemcpyHtoDAsync", "(dst=0x900000, src=0x7f000100, size=64, stream=0)", 12},
  };
  an_mem *v = NULL;
  size_t n = 0, cap = 0;
  for (size_t i = 0; i < sizeof calls / sizeof *calls; i++) {
    bool copy;
    an_mem m;
    if (!an_mem_of_call(calls[i].name, calls[i].args, &m, &copy)) continue;
    m.start = calls[i].t * 100, m.end = m.start + calls[i].t, m.name = (uint32_t)i;
    if (n == cap) v = realloc(v, (cap = cap ? 2 * cap : 16) * sizeof *v);
    v[n++] = m;
  }
  cv_mem_rec recs[] = {
      {.start = 100,
       .end = 101,
       .addr = 0x7f000000,
       .size = 2097152,
       .op = CV_MEM_ALLOC,
       .kind = CV_MEMK_MANAGED,
       .has_agent = true},
      {.start = 150,
       .end = 151,
       .addr = 0x900000,
       .size = 65536,
       .op = CV_MEM_ALLOC,
       .kind = CV_MEMK_DEVICE,
       .has_agent = true,
       .agent = 1},
      {.start = 1000,
       .end = 1001,
       .addr = 0x7f000000,
       .size = 2097152,
       .op = CV_MEM_FREE,
       .kind = CV_MEMK_MANAGED,
       .matched = true},
  };
  cv_mem mem = {.v = recs, .n = sizeof recs / sizeof *recs, .resolved = true};
  CHECK(an_mem_take_records(&v, &n, &cap, &mem, 0));
  CHECK_U64(n, 3 + 3);
  size_t dev = 0, freed = 0; /* the range and its free, as device memory's */
  for (size_t i = 0; i < n; i++)
    if (v[i].ptr == 0x7f000000) {
      dev += v[i].kind == AN_MEM_DEV && v[i].size == 2097152;
      freed += v[i].kind == AN_MEM_FREE;
    }
  CHECK_U64(dev, 1);
  CHECK_U64(freed, 1);
  an_rule r;
  an_rule_pageable(v, n, 0, &r);
  CHECK_U64(r.of, 3);
  CHECK_U64(r.count, 1); /* the copy after the free */
  CHECK_U64(r.worst[0].name, 2);
  free(v);
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
    uint64_t first = T, first_start = T, last = 0;
    for (size_t i = 0; i < nops; i++) {
      uint64_t s = 200 + rnd(T - 400), e = s + rnd(150);
      an_op *o = &ops[i];
      *o = (an_op){.start = s, .end = e, .tid = 1 + rnd(3), .kind = (uint8_t)rnd(3)};
      o->deps = o->kind == AN_OP_BARRIER && rnd(2);
      if ((o->kind != AN_OP_BARRIER || o->deps) && rnd(2)) o->enq = s > 100 ? s - rnd(100) : 0;
      /* a waiting barrier waits from its enqueue (when its queue reached it) */
      uint64_t from = o->deps && o->enq ? o->enq : s;
      if (from < first) first = from;
      if (s < first_start) first_start = s;
      if (e > last) last = e;
      for (uint64_t t = s; t < e; t++) {
        if (o->kind == AN_OP_KERNEL) kern[t] = 1;
        if (o->kind == AN_OP_COPY) copy[t] = 1;
      }
      for (uint64_t t = from; o->deps && t < e; t++) dep[t] = 1;
      if (o->enq && !o->deps)
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
    /* the span starts at the earliest of the process's start and the first
     * op's start (a barrier's wait before that is cut off, as startup is) */
    if (first_start < ps) ps = first_start;
    for (uint64_t t = ps; t < last; t++) {
      if (kern[t]) {
        busy++;
        continue;
      }
      int c = t < first ? 0 : copy[t] ? 1 : dep[t] ? 2 : launch[t] ? 3 : -1;
      if (c >= 0) cause[c]++;
    }
    CHECK_U64(r.span, last - ps);
    CHECK_U64(r.busy, busy);
    CHECK_U64(r.idle, last - ps - busy);
    CHECK_U64(sum_causes(&r), r.idle);
    for (int c = 0; c < 4; c++) CHECK_U64(r.cause[c], cause[c]);
  }
}

/* an_order_by_key: the order qsort gives by (key, index), on keys of a
 * narrow and a full 64-bit range with many equal ones. */
static const uint64_t *order_keys;
static int by_key_index(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  if (order_keys[x] != order_keys[y]) return order_keys[x] < order_keys[y] ? -1 : 1;
  return x < y ? -1 : x > y;
}

static void test_order_by_key(void) {
  srand(7);
  for (int round = 0; round < 40; round++) {
    size_t n = round < 2     ? (size_t)round
               : round >= 34 ? (size_t)(70000 + rand() % 100000) /* in parts */
                             : (size_t)(rand() % 5000);
    uint64_t *key = malloc((n + 1) * sizeof *key);
    uint32_t *got = malloc((n + 1) * sizeof *got), *want = malloc((n + 1) * sizeof *want);
    for (size_t i = 0; i < n; i++) {
      uint64_t r = (uint64_t)rand() << 42 ^ (uint64_t)rand() << 21 ^ (uint64_t)rand();
      key[i] = round % 3 == 0   ? 1000000 + (uint64_t)(rand() % 50) /* equal ones */
               : round % 3 == 1 ? r                                 /* any bits */
                                : 123456789 + r % 100000000;
      want[i] = (uint32_t)i;
    }
    order_keys = key;
    qsort(want, n, sizeof *want, by_key_index);
    an_order_by_key(key, n, got);
    int same = 1;
    for (size_t i = 0; i < n; i++) same &= got[i] == want[i];
    CHECK(same);
    free(key), free(got), free(want);
  }
}

/* an_gather: the same as a loop, in parts (n large) and whole. */
static void test_gather(void) {
  size_t sizes[] = {0, 1, 1000, 300000};
  for (size_t t = 0; t < sizeof sizes / sizeof *sizes; t++) {
    size_t n = sizes[t];
    uint32_t *perm = malloc((n + 1) * sizeof *perm);
    uint64_t *from = malloc((n + 1) * 3 * sizeof *from), *to = malloc((n + 1) * 3 * sizeof *to);
    for (size_t i = 0; i < n; i++) perm[i] = (uint32_t)((i * 7919) % n);
    for (size_t i = 0; i < 3 * n; i++) from[i] = i * 31 + 5;
    an_gather(to, from, 3 * sizeof *from, perm, n);
    int same = 1;
    for (size_t i = 0; i < n; i++)
      for (int k = 0; k < 3; k++) same &= to[3 * i + k] == from[3 * perm[i] + k];
    CHECK(same);
    free(perm), free(from), free(to);
  }
}

/* An op waits for the op before it in its own queue (A), not for the one
 * before it in time on another (B). */
static void test_critical_queue_order(void) {
  an_op ops[] = {
      {.start = 0, .end = 100, .name = 1, .queue = 0},
      {.start = 10, .end = 20, .name = 2, .queue = 1},
      {.start = 100, .end = 200, .name = 3, .queue = 0},
      {.start = 120, .end = 130, .name = 4, .queue = 1},
  };
  an_cp_gpu gpu = {.ops = ops, .nops = 4};
  an_cp_result r;
  CHECK(an_critical_path(0, NULL, 0, false, &gpu, 1, &r));
  CHECK_U64(r.length, 200);
  CHECK_U64(r.cat[AN_CP_KERNEL], 200);
  CHECK_U64(r.nkernels, 2);
  CHECK_U64(r.kernels[0].name + r.kernels[1].name, 1 + 3);
}

/* The shape an_sort_calls_shape finds, by its definitions. */
static unsigned shape_of(const an_call *c, size_t n, uint64_t after) {
  unsigned shape = AN_CALLS_DISJOINT | AN_CALLS_NONEMPTY | AN_CALLS_AFTER;
  for (size_t i = 0; i < n; i++) {
    if (c[i].end <= c[i].start) shape &= ~(unsigned)AN_CALLS_NONEMPTY;
    if (c[i].start < after) shape &= ~(unsigned)AN_CALLS_AFTER;
    for (size_t j = 0; j < n; j++) /* two calls of a thread overlap */
      if (i != j && c[i].tid == c[j].tid && c[j].start >= c[i].start && c[j].start < c[i].end &&
          (c[j].start > c[i].start || j > i))
        shape &= ~(unsigned)AN_CALLS_DISJOINT;
  }
  return shape;
}

/* Calls taken as they are (an_gpu.calls_flat, an_critical_path's
 * calls_top, where an_sort_calls_shape says they may be) give the same
 * idle causes and critical path as the copies made of them otherwise; on
 * random threads of calls, flat or nested, empty or not, some before the
 * process's start, and random ops enqueued and waited for by them. */
static void test_calls_in_place(void) {
  enum { NC = 80, NO = 40 };
  static an_call calls[NC], c1[NC], c2[NC];
  static an_op ops[NO], o1[NO], o2[NO];
  static uint32_t waiter[NO];
  int flat_rounds = 0, top_rounds = 0;
  for (int round = 0; round < 400; round++) {
    bool flat = round % 2; /* disjoint, non-empty calls on each thread */
    size_t nc = rnd(NC), no = 1 + rnd(NO);
    uint64_t at[4] = {0, 0, 0, 0};
    for (size_t i = 0; i < nc; i++) {
      uint64_t tid = 1 + rnd(3), s, e;
      if (flat) {
        s = at[tid] + rnd(40), e = s + 1 + rnd(60);
        at[tid] = e;
      } else {
        s = rnd(T), e = s + rnd(200) * (rnd(4) != 0);
      }
      calls[i] = (an_call){.tid = tid, .start = s, .end = e, .name = (uint32_t)rnd(5)};
      if (!rnd(3)) calls[i].flags = AN_CALL_SYNC, calls[i].sync = true;
    }
    for (size_t i = 0; i < no; i++) {
      uint64_t s = 50 + rnd(T), e = s + rnd(150);
      ops[i] = (an_op){.start = s,
                       .end = e,
                       .tid = 1 + rnd(3),
                       .kind = (uint8_t)rnd(3),
                       .queue = (uint32_t)rnd(3),
                       .name = (uint32_t)(10 + rnd(3))};
      ops[i].deps = ops[i].kind == AN_OP_BARRIER && rnd(2);
      if (rnd(3)) ops[i].enq = s > 30 ? s - rnd(30) : 0;
      if (rnd(2)) ops[i].api_s = ops[i].enq > 5 ? ops[i].enq - 5 : 0, ops[i].api_e = ops[i].enq;
      waiter[i] = rnd(3) ? 0 : (uint32_t)(1 + rnd(3));
    }
    an_sort_ops(ops, no);
    uint64_t ps = 1 + rnd(flat ? 20 : 300);
    memcpy(c1, calls, sizeof calls);
    unsigned shape = an_sort_calls_shape(c1, nc, ps);
    CHECK_U64(shape, shape_of(c1, nc, ps));
    for (size_t i = 1; i < nc; i++)
      CHECK(c1[i - 1].tid < c1[i].tid ||
            (c1[i - 1].tid == c1[i].tid && c1[i - 1].start <= c1[i].start));
    if (flat) CHECK((shape & AN_CALLS_FLAT) == AN_CALLS_FLAT);
    /* the idle causes */
    an_result r1, r2;
    memcpy(c2, c1, sizeof c1), memcpy(o1, ops, sizeof ops), memcpy(o2, ops, sizeof ops);
    an_gpu g = {.proc_start = ps,
                .window_end = UINT64_MAX,
                .default_tid = 1,
                .ops = o1,
                .nops = no,
                .calls = c1,
                .ncalls = nc};
    bool ok1 = an_attribute(&g, &r1);
    g.ops = o2, g.calls = c2, g.calls_flat = (shape & AN_CALLS_FLAT) == AN_CALLS_FLAT;
    flat_rounds += g.calls_flat;
    CHECK(ok1 == an_attribute(&g, &r2));
    CHECK(!memcmp(&r1, &r2, sizeof r1));
    /* the critical path */
    an_cp_result p1, p2;
    an_cp_gpu gpu = {.ops = ops, .nops = no, .waiter = waiter};
    bool top = (shape & AN_CALLS_TOP) == AN_CALLS_TOP;
    top_rounds += top;
    bool k1 = an_critical_path(ps, c1, nc, false, &gpu, 1, &p1);
    CHECK(k1 == an_critical_path(ps, c1, nc, top, &gpu, 1, &p2));
    CHECK(!memcmp(&p1, &p2, sizeof p1));
  }
  CHECK(flat_rounds >= 100);
  CHECK(top_rounds >= 50);
}

int main(void) {
  test_ivset();
  test_ivset_by_end();
  test_order_by_key();
  test_gather();
  test_precedence();
  test_random();
  test_launch();
  test_launch_random();
  test_rules();
  test_barrier_wait();
  test_critical();
  test_critical_dep_signal();
  test_critical_wake_waiter();
  test_critical_queue_order();
  test_calls_in_place();
  test_pageable();
  test_pageable_records();
  test_pageable_managed();
  return check_done("test_analyze");
}
