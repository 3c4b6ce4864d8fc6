/* rtg-convert's call/op matching (src/convert/shared/corr.c): with tables far
 * smaller than the distance between calls and their ops, every pair is
 * still found exactly once (through compaction, spilling and corr_finish),
 * ops without a call are counted, and memory stays at the size limit. */
#include <stdlib.h>

#include "check.h"
#include "corr.h"

#define N 200000

static unsigned char *seen; /* per op: times matched */
static uint64_t wrong;

static void on_match(void *arg, corr_val call, corr_val op) {
  (void)arg;
  if (call.a != op.a) wrong++; /* a = the correlation id on both sides */
  if (op.b < N) seen[op.b]++;
}

static uint64_t rng = 12345;
static uint64_t rnd(void) {
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return rng;
}

/* calls 1..N; call i has an op unless i % 5 == 0 (hipMalloc-like) and a
 * second op when i % 7 == 0; ops come `lag` calls later or, for a third of
 * them, before their call; ops of ids > N have no call at all */
static void run(size_t max_slots, uint64_t lag) {
  corr_table t;
  CHECK(corr_init(&t, max_slots));
  seen = calloc(N + 1, 1);
  wrong = 0;
  uint64_t expected_pairs = 0, orphans = 0;
  for (uint64_t i = 1; i <= N + lag; i++) {
    if (i <= N && i % 3 == 0 && i % 5) { /* op before its call */
      corr_val op = {i, i, 0, 0}, call;
      if (corr_op(&t, corr_key(0, i), op, &call)) on_match(NULL, call, op);
    }
    if (i <= N) corr_call(&t, corr_key(0, i), (corr_val){i, 0, 0, 0}, on_match, NULL);
    if (i > lag) {
      uint64_t j = i - lag; /* ops of call j arrive now */
      if (j % 5 && j % 3) {
        corr_val op = {j, j, 0, 0}, call;
        if (corr_op(&t, corr_key(0, j), op, &call)) on_match(NULL, call, op);
      }
      if (j % 7 == 0 && j % 5) {
        corr_val op = {j, N, 0, 0}, call; /* second op: not tracked in seen[] */
        if (corr_op(&t, corr_key(0, j), op, &call)) on_match(NULL, call, op);
        expected_pairs++;
      }
    }
    if (rnd() % 1000 == 0) { /* an op whose call is not in the input */
      corr_val op = {N + 1 + orphans, N, 0, 0}, call;
      if (corr_op(&t, corr_key(1, N + 1 + orphans), op, &call)) on_match(NULL, call, op);
      orphans++;
    }
  }
  corr_finish(&t, on_match, NULL);
  uint64_t missing = 0, twice = 0;
  for (uint64_t j = 1; j <= N; j++) {
    if (j % 5) {
      expected_pairs++;
      missing += seen[j] == 0;
      twice += seen[j] > 1;
    } else {
      twice += seen[j] != 0;
    }
  }
  CHECK(wrong == 0);
  CHECK(missing == 0);
  CHECK(twice == 0);
  CHECK(t.unmatched_ops + t.matched == expected_pairs + orphans);
  CHECK(t.unmatched_ops == orphans); /* a later op of a matched call finds it in the spill */
  CHECK(t.calls.slots <= (max_slots ? max_slots : 1u << 17) &&
        t.ops.slots <= (max_slots ? max_slots : 1u << 17));
  if (missing || wrong || twice)
    fprintf(stderr, "max_slots %zu lag %llu: missing %llu wrong %llu twice %llu\n", max_slots,
            (unsigned long long)lag, (unsigned long long)missing, (unsigned long long)wrong,
            (unsigned long long)twice);
  free(seen);
  corr_free(&t);
}

int main(void) {
  run(0, 10);       /* default size, ops soon after their calls */
  run(1024, 10);    /* small table, short distance: compaction only */
  run(1024, 50000); /* small table, ops far behind: both sides spill */
  run(4096, 150000);
  return check_done("test_convert_corr");
}
