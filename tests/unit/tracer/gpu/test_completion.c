/* The life of a GPU op (gpu/completion.c over op_pool.c and sigtrack.c):
 * its claim word's states and generations, completion by the first thread
 * that sees the hardware done, the waiter's turn, and the application's
 * signal left as the hardware would leave it. */
#include "check.h"
#include "core/emit.h"
#include "fake_hsa.h"

#include <pthread.h>

static rtg_op_flight flight;

/* An op of app submitted to its waiter: bound, counted in flight, queued. */
static rtg_op *submitted(rtg_op_kind kind, hsa_signal_t app) {
  rtg_op *op = rtg_op_alloc();
  op->kind = kind;
  op->flight = &flight;
  CHECK(rtg_op_bind_signal(op, app));
  atomic_fetch_add(&flight.inflight, 1);
  atomic_store(&op->queued, true);
  return op;
}

static uint32_t state(const rtg_op *op) {
  return atomic_load(&op->claim) & 3;
}
static uint32_t generation(const rtg_op *op) {
  return atomic_load(&op->claim) >> 2;
}

/* Each life of an op's memory has its own generation. */
static void generations(void) {
  rtg_op *op = rtg_op_alloc();
  uint32_t gen = generation(op);
  CHECK_U64(state(op), RTG_OP_PENDING);
  rtg_op_free(op);
  rtg_op *again = rtg_op_alloc();
  CHECK(again == op); /* the pool's last freed first */
  CHECK_U64(generation(again), gen + 1);
  CHECK_U64(state(again), RTG_OP_PENDING);
  rtg_op_free(again);
}

/* The application's thread completes an owner it sees done; its waiter
 * then only frees it. */
static void completed_by_application(void) {
  hsa_signal_t app = fake_signal_new(1);
  rtg_op *op = rtg_op_alloc();
  op->flight = &flight;
  CHECK(rtg_op_bind_signal(op, app));
  rtg_owner_ref o;
  CHECK(rtg_sigtrack_owner(app.handle, &o));
  CHECK(o.op == op && o.signal == app.handle);
  uint32_t claim = atomic_load(&op->claim);
  CHECK_U64(o.claim, claim);
  CHECK(!rtg_op_try_complete(&o)); /* not yet queued */
  atomic_fetch_add(&flight.inflight, 1);
  atomic_store(&op->queued, true);
  CHECK(!rtg_owner_hw_done(&o));
  CHECK(!rtg_op_try_complete(&o)); /* the hardware is not done */
  CHECK_U64(fake_value(app), 2);
  fake_hw_done(app, 100, 250);
  CHECK(rtg_owner_hw_done(&o));
  int records = fake.records;
  rtg_owner_ref stale = o;
  stale.claim = claim - 4; /* an earlier life's */
  CHECK(!rtg_op_try_complete(&stale));
  CHECK(rtg_op_try_complete(&o));
  CHECK_U64(state(op), RTG_OP_DONE);
  CHECK_U64(generation(op), claim >> 2);
  CHECK_U64(fake.records, records + 1);
  CHECK(fake.op == op);
  CHECK_U64(fake.start, 100);
  CHECK_U64(fake.stop, 250);
  CHECK_U64(fake_value(app), 0); /* as the hardware would leave it */
  CHECK_U64(atomic_load(&flight.inflight), 0);
  CHECK(!rtg_op_try_complete(&o)); /* once */
  CHECK_U64(fake.records, records + 1);
  CHECK(rtg_op_waiter_try(op)); /* done: the waiter frees it */
  rtg_op *again = rtg_op_alloc();
  CHECK(again == op);
  rtg_op_free(again);
}

/* Nobody waits: the waiter completes it, and frees it. */
static void completed_by_waiter(void) {
  hsa_signal_t app = fake_signal_new(1);
  rtg_op *op = submitted(RTG_OP_DISPATCH, app);
  CHECK(!rtg_op_waiter_try(op)); /* come back later */
  CHECK_U64(state(op), RTG_OP_PENDING);
  fake_hw_done(app, 7, 9);
  int records = fake.records;
  CHECK(rtg_op_waiter_try(op));
  CHECK_U64(fake.records, records + 1);
  CHECK_U64(fake.stop, 9);
  CHECK_U64(fake_value(app), 0);
  CHECK_U64(atomic_load(&flight.inflight), 0);
}

/* Claimed by another thread: the waiter leaves it to that thread. */
static void claimed_elsewhere(void) {
  hsa_signal_t app = fake_signal_new(1);
  rtg_op *op = submitted(RTG_OP_DISPATCH, app);
  fake_hw_done(app, 1, 2);
  rtg_owner_ref o;
  CHECK(rtg_sigtrack_owner(app.handle, &o));
  uint32_t c = atomic_load(&op->claim);
  atomic_store(&op->claim, c | RTG_OP_CLAIMED);
  CHECK(!rtg_op_waiter_try(op));
  CHECK(!rtg_op_try_complete(&o)); /* claimed: no longer the claim looked up */
  atomic_store(&op->claim, c);     /* as if that thread gave it back: finish it */
  CHECK(rtg_op_waiter_try(op));
}

/* A copy reads the copy engine's times; times that cannot be read make a
 * lost op, not a record, and the signal is still released. */
static void copies_and_lost_times(void) {
  hsa_signal_t app = fake_signal_new(1);
  rtg_op *op = submitted(RTG_OP_COPY, app);
  fake_hw_done(app, 40, 60);
  CHECK(rtg_op_waiter_try(op));
  CHECK_U64(fake.start, 40);
  CHECK_U64(fake.stop, 60);
  op = submitted(RTG_OP_DISPATCH, app);
  fake_hw_done(app, 1, 2);
  uint64_t lost = rtg_counter_get(RTG_CNT_LOST_GPU);
  int records = fake.records;
  fake.times_fail = true;
  CHECK(rtg_op_waiter_try(op));
  fake.times_fail = false;
  CHECK_U64(fake.records, records);
  CHECK_U64(rtg_counter_get(RTG_CNT_LOST_GPU), lost + 1);
  CHECK_U64(fake_value(app), -1); /* released all the same */
}

/* A quiet op (the application's handler completes it) is done once the
 * hardware wrote its end time, whatever its value. */
static void quiet_done_by_end_time(void) {
  hsa_signal_t app = fake_signal_new(1);
  rtg_op *op = rtg_op_alloc();
  op->quiet = true;
  op->flight = &flight;
  CHECK(rtg_op_bind_signal(op, app));
  atomic_fetch_add(&flight.inflight, 1);
  atomic_store(&op->queued, true);
  rtg_owner_ref o;
  CHECK(rtg_sigtrack_owner(app.handle, &o) && o.quiet);
  CHECK(!rtg_owner_hw_done(&o));
  fake_amd(app)->end_ts = 5; /* the application set it back meanwhile */
  CHECK(rtg_owner_hw_done(&o));
  CHECK(rtg_op_waiter_try(op));
  CHECK_U64(fake_value(app), 1); /* the quiet op's value is the application's */
}

/* Settling: an owner the hardware finished is completed by whoever looks. */
static void settle(void) {
  hsa_signal_t app = fake_signal_new(1);
  rtg_op *op = submitted(RTG_OP_DISPATCH, app);
  rtg_owner_ref o;
  CHECK(rtg_sigtrack_owner(app.handle, &o) && o.op == op);
  fake_hw_done(app, 1, 2);
  rtg_op_settle(app.handle, &o);
  CHECK_U64(state(op), RTG_OP_DONE);
  CHECK(!rtg_sigtrack_owner(app.handle, &o));
  CHECK(rtg_op_waiter_try(op));
}

/* A thread that looked an op up before it was completed and reused holds
 * a ref to its last life: it neither completes nor reads the new one. */
static void stale_ref_to_next_life(void) {
  hsa_signal_t app = fake_signal_new(1);
  rtg_op *op = submitted(RTG_OP_DISPATCH, app);
  rtg_owner_ref old;
  CHECK(rtg_sigtrack_owner(app.handle, &old));
  fake_hw_done(app, 1, 2);
  CHECK(rtg_op_waiter_try(op)); /* completed and freed by its waiter */
  hsa_signal_t next = fake_signal_new(1);
  rtg_op *again = submitted(RTG_OP_DISPATCH, next);
  CHECK(again == op);
  fake_hw_done(next, 3, 4);
  int records = fake.records;
  CHECK(rtg_owner_hw_done(&old)); /* the old signal's value */
  CHECK(!rtg_op_try_complete(&old));
  CHECK_U64(fake.records, records);
  CHECK_U64(state(again), RTG_OP_PENDING);
  CHECK(rtg_op_waiter_try(again));
}

/* The application's reads of op times (HIP's of its markers) and the
 * tracer's own, on other threads, take turns: the runtime's translation
 * is never entered by two at once, so none of them sleeps in its mutex. */
static hsa_signal_t app_sig;
static _Atomic int bad_reads;
static void *app_reads(void *arg) {
  (void)arg;
  for (int i = 0; i < 1500; i++) {
    hsa_amd_profiling_dispatch_time_t t;
    hsa_amd_profiling_async_copy_time_t c;
    if (rtg_impl.hsa_amd_profiling_get_dispatch_time((hsa_agent_t){1}, app_sig, &t) || t.end != 6 ||
        rtg_impl.hsa_amd_profiling_get_async_copy_time(app_sig, &c) || c.end != 6)
      bad_reads++;
  }
  return NULL;
}

static void times_in_turn(void) {
  rtg_cfg.profile = true;
  rtg_op_times_hooks_init();
  CHECK(rtg_impl.hsa_amd_profiling_get_dispatch_time !=
        rtg_real.hsa_amd_profiling_get_dispatch_time);
  CHECK(rtg_impl.hsa_amd_profiling_get_async_copy_time !=
        rtg_real.hsa_amd_profiling_get_async_copy_time);
  app_sig = fake_signal_new(0);
  fake_hw_done(app_sig, 5, 6);
  fake.times_slow = true;
  pthread_t reader[2];
  for (int i = 0; i < 2; i++) pthread_create(&reader[i], NULL, app_reads, NULL);
  int records = fake.records;
  for (int i = 0; i < 1500; i++) { /* ops a waiter completes meanwhile */
    hsa_signal_t app = fake_signal_new(1);
    rtg_op *op = submitted(i % 2 ? RTG_OP_DISPATCH : RTG_OP_COPY, app);
    fake_hw_done(app, 1, 2);
    CHECK(rtg_op_waiter_try(op));
  }
  for (int i = 0; i < 2; i++) pthread_join(reader[i], NULL);
  fake.times_slow = false;
  CHECK_U64(fake.records, records + 1500);
  CHECK_U64(bad_reads, 0);
  CHECK_U64(atomic_load(&fake.times_max_inside), 1);
  rtg_impl = rtg_real;
}

int main(void) {
  fake_hsa_install();
  rtg_sigtrack_init();
  generations();
  completed_by_application();
  completed_by_waiter();
  claimed_elsewhere();
  copies_and_lost_times();
  quiet_done_by_end_time();
  settle();
  stale_ref_to_next_life();
  times_in_turn();
  return check_done("test_completion");
}
