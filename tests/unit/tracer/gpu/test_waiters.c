/* A queue's waiter thread (gpu/waiters.c): at its queue's destroy, an op
 * another thread is completing right then (claimed, its record queued, no
 * longer in flight, not yet marked done) is that thread's to finish, not
 * an unfinished one; an op nobody completes is unfinished.  An op an
 * application thread waits on is left to that thread, for a while. */
#include "check.h"
#include "core/config.h"
#include "core/emit.h"
#include "fake_hsa.h"

#include <pthread.h>
#include <time.h>

/* async_handlers.c's part of a submission: no application handlers here */
void rtg_async_arm(rtg_op *op) {
  (void)op;
}

static uint32_t state(const rtg_op *op) {
  return atomic_load(&op->claim) & 3;
}

static uint64_t unfinished(void) {
  return atomic_load(&rtg_counters[RTG_CNT_UNFINISHED]);
}

static void *destroyer(void *w) {
  rtg_waiter_destroy(w, 2000);
  return NULL;
}

static void sleep_ms(long ms) {
  struct timespec ts = {0, ms * 1000000L};
  nanosleep(&ts, NULL);
}

/* An op of a fresh signal submitted to w. */
static rtg_op *submit(rtg_op_waiter *w, hsa_signal_t app) {
  rtg_op *op = rtg_op_alloc();
  op->kind = RTG_OP_DISPATCH;
  op->waiter = w;
  CHECK(rtg_op_bind_signal(op, app));
  rtg_waiter_submit(op);
  return op;
}

/* The application's thread has claimed the op and landed it (inflight 0:
 * the destroy no longer waits) but not yet marked it done when the queue
 * is destroyed: the waiter waits for it, frees it, counts nothing. */
static void claimed_at_destroy(void) {
  rtg_op_waiter *w = rtg_waiter_create(16);
  CHECK(w != NULL);
  hsa_signal_t app = fake_signal_new(1);
  rtg_op *op = submit(w, app);
  uint32_t c = atomic_load(&op->claim);
  CHECK(atomic_compare_exchange_strong(&op->claim, &c, c | RTG_OP_CLAIMED));
  fake_hw_done(app, 100, 200);
  rtg_op_landed(op);
  uint64_t before = unfinished();
  pthread_t t;
  CHECK(pthread_create(&t, NULL, destroyer, w) == 0);
  sleep_ms(50); /* the destroy stops the waiter meanwhile */
  rtg_op_release_signal(op);
  atomic_store(&op->claim, c | RTG_OP_DONE);
  pthread_join(t, NULL);
  CHECK_U64(unfinished(), before);
  CHECK_U64(fake_value(app), 0);
}

/* An op an application thread waits on is that thread's to complete: the
 * waiter leaves it although the hardware is done, and only frees it. */
static void left_to_the_waiting_thread(void) {
  rtg_op_waiter *w = rtg_waiter_create(16);
  CHECK(w != NULL);
  hsa_signal_t app = fake_signal_new(1);
  rtg_op *op = submit(w, app);
  rtg_owner_ref o;
  CHECK(rtg_sigtrack_owner(app.handle, &o));
  atomic_fetch_add(&op->app_waits, 1);
  int records = fake_records();
  fake_hw_done(app, 100, 200);
  sleep_ms(10); /* the waiter looks every 200 us to 1 ms */
  CHECK_U64(fake_records(), records);
  CHECK_U64(state(op), RTG_OP_PENDING);
  CHECK(rtg_op_try_complete(&o)); /* the waiting thread's */
  atomic_fetch_sub(&op->app_waits, 1);
  CHECK_U64(fake_records(), records + 1);
  uint64_t before = unfinished();
  rtg_waiter_destroy(w, 2000);
  CHECK_U64(unfinished(), before);
}

/* A waiting thread that does not come back for LEAVE_NS (20 ms): the
 * waiter completes the op itself. */
static void taken_back_after_a_while(void) {
  rtg_op_waiter *w = rtg_waiter_create(16);
  CHECK(w != NULL);
  hsa_signal_t app = fake_signal_new(1);
  rtg_op *op = submit(w, app);
  atomic_fetch_add(&op->app_waits, 1);
  int records = fake_records();
  fake_hw_done(app, 100, 200);
  for (int i = 0; i < 500 && fake_records() == records; i++) sleep_ms(1);
  CHECK_U64(fake_records(), records + 1);
  CHECK_U64(fake_value(app), 0);
  atomic_fetch_sub(&op->app_waits, 1);
  rtg_waiter_destroy(w, 2000);
}

/* An op the hardware never finishes is unfinished at the destroy. */
static void pending_at_destroy(void) {
  rtg_op_waiter *w = rtg_waiter_create(16);
  CHECK(w != NULL);
  hsa_signal_t app = fake_signal_new(1);
  submit(w, app);
  uint64_t before = unfinished();
  rtg_waiter_destroy(w, 20);
  CHECK_U64(unfinished(), before + 1);
}

int main(void) {
  fake_hsa_install();
  rtg_sigtrack_init();
  rtg_cfg.exit_wait_ms = 2000;
  claimed_at_destroy();
  pending_at_destroy();
  left_to_the_waiting_thread();
  taken_back_after_a_while();
  return check_done("test_waiters");
}
