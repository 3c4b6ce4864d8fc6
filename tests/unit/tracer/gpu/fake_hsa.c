/* See fake_hsa.h. */
#include "fake_hsa.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

fake_log fake;
rtg_hsa_fns rtg_real, rtg_impl; /* hsa/tables.c's, not linked here */

/* Signals live in a static pool, as the runtime's do in its own memory:
 * the tests create them freely and nothing is left to free at exit. */
enum { POOL = 4096 };
static amd_signal_t pool[POOL] __attribute__((aligned(64)));
static unsigned used;

hsa_signal_t fake_signal_new(int64_t value) {
  if (used == POOL) {
    fprintf(stderr, "fake_hsa: more than %d signals\n", POOL);
    abort();
  }
  amd_signal_t *s = &pool[used++];
  memset(s, 0, sizeof *s);
  s->value = value;
  return (hsa_signal_t){(uint64_t)(uintptr_t)s};
}
amd_signal_t *fake_amd(hsa_signal_t s) {
  return (amd_signal_t *)(uintptr_t)s.handle;
}
int64_t fake_value(hsa_signal_t s) {
  return __atomic_load_n(&fake_amd(s)->value, __ATOMIC_ACQUIRE);
}
void fake_hw_done(hsa_signal_t s, uint64_t start, uint64_t end) {
  /* (atomic: the tracer reads the end time while ops run) */
  __atomic_store_n(&fake_amd(s)->start_ts, start, __ATOMIC_RELAXED);
  __atomic_store_n(&fake_amd(s)->end_ts, end, __ATOMIC_RELEASE);
  __atomic_sub_fetch(&fake_amd(s)->value, 1, __ATOMIC_RELEASE);
}

static hsa_status_t signal_create(hsa_signal_value_t v, uint32_t n, const hsa_agent_t *consumers,
                                  hsa_signal_t *out) {
  (void)n, (void)consumers;
  *out = fake_signal_new(v);
  fake.signals_live++;
  return HSA_STATUS_SUCCESS;
}
static hsa_status_t signal_destroy(hsa_signal_t s) {
  memset(fake_amd(s), 0xa5, sizeof(amd_signal_t)); /* a use after destroy reads garbage */
  fake.signals_live--;
  return HSA_STATUS_SUCCESS;
}
static void subtract(hsa_signal_t s, hsa_signal_value_t v) {
  fake.subtracts++;
  __atomic_sub_fetch(&fake_amd(s)->value, v, __ATOMIC_RELEASE);
}
/* As the runtime translates the times under a mutex of the GPU's: how
 * many threads are inside at once, with a window of a few microseconds. */
static void times_enter(void) {
  if (!fake.times_slow) return;
  int n = atomic_fetch_add(&fake.times_inside, 1) + 1, max = atomic_load(&fake.times_max_inside);
  while (n > max && !atomic_compare_exchange_weak(&fake.times_max_inside, &max, n)) {
  }
  for (volatile int i = 0; i < 2000; i++) {
  }
  atomic_fetch_sub(&fake.times_inside, 1);
}
static hsa_status_t dispatch_time(hsa_agent_t a, hsa_signal_t s,
                                  hsa_amd_profiling_dispatch_time_t *t) {
  (void)a;
  times_enter();
  if (fake.times_fail) return HSA_STATUS_ERROR;
  t->start = fake_amd(s)->start_ts, t->end = fake_amd(s)->end_ts;
  return HSA_STATUS_SUCCESS;
}
static hsa_status_t copy_time(hsa_signal_t s, hsa_amd_profiling_async_copy_time_t *t) {
  times_enter();
  if (fake.times_fail) return HSA_STATUS_ERROR;
  t->start = fake_amd(s)->start_ts, t->end = fake_amd(s)->end_ts;
  return HSA_STATUS_SUCCESS;
}

void fake_hsa_install(void) {
  rtg_real.hsa_signal_create = signal_create;
  rtg_real.hsa_signal_destroy = signal_destroy;
  rtg_real.hsa_signal_subtract_screlease = subtract;
  rtg_real.hsa_amd_profiling_get_dispatch_time = dispatch_time;
  rtg_real.hsa_amd_profiling_get_async_copy_time = copy_time;
  rtg_impl = rtg_real;
}

/* op_record.c's, caught */
void rtg_op_record_done(const rtg_op *op, uint64_t start, uint64_t stop, uint32_t waiter) {
  (void)waiter;
  fake.op = op, fake.start = start, fake.stop = stop;
  __atomic_fetch_add(&fake.records, 1,
                     __ATOMIC_RELEASE); /* (a waiter thread's, read by the test's) */
}

int fake_records(void) {
  return __atomic_load_n(&fake.records, __ATOMIC_ACQUIRE);
}
