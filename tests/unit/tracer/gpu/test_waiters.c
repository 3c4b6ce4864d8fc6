/* A queue's waiter thread at its queue's destroy (gpu/waiters.c): an op
 * another thread is completing right then (claimed, its record queued, no
 * longer in flight, not yet marked done) is that thread's to finish, not
 * an unfinished one; an op nobody completes is unfinished. */
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
  return check_done("test_waiters");
}
