/* The application's waits on a signal the tracer raised (gpu/signal_hooks.c
 * over app_view.c, sigtrack.c and completion.c, on a stand-in runtime):
 * the application never sees an op finished before its times are read and
 * the raise is taken away, even when the hardware's decrement lands
 * between the hook's look at the op and its load of the value. */
#include "check.h"
#include "core/config.h"
#include "fake_hsa.h"

static rtg_op_flight flight;
static hsa_signal_t decrement_at_load; /* the hardware finishes it at the next load */

static hsa_signal_value_t load(hsa_signal_t s) {
  if (decrement_at_load.handle == s.handle) {
    decrement_at_load.handle = 0;
    fake_hw_done(s, 100, 200);
  }
  return fake_value(s);
}

static bool met(hsa_signal_condition_t c, hsa_signal_value_t v, hsa_signal_value_t cmp) {
  return c == HSA_SIGNAL_CONDITION_EQ   ? v == cmp
         : c == HSA_SIGNAL_CONDITION_NE ? v != cmp
         : c == HSA_SIGNAL_CONDITION_LT ? v < cmp
                                        : v >= cmp;
}

/* the runtime's waits: nothing else runs here, so they answer at once */
static hsa_signal_value_t wait(hsa_signal_t s, hsa_signal_condition_t c, hsa_signal_value_t cmp,
                               uint64_t timeout, hsa_wait_state_t state) {
  (void)c, (void)cmp, (void)timeout, (void)state;
  return load(s);
}
static uint32_t wait_any(uint32_t n, hsa_signal_t *s, hsa_signal_condition_t *c,
                         hsa_signal_value_t *v, uint64_t timeout, hsa_wait_state_t state,
                         hsa_signal_value_t *out) {
  (void)timeout, (void)state;
  for (uint32_t i = 0; i < n; i++) {
    hsa_signal_value_t now = load(s[i]);
    if (met(c[i], now, v[i])) {
      if (out) *out = now;
      return i;
    }
  }
  return n;
}

/* An owner of app, raised, handed to its waiter. */
static rtg_op *submitted(hsa_signal_t app) {
  rtg_op *op = rtg_op_alloc();
  op->kind = RTG_OP_DISPATCH;
  op->flight = &flight;
  CHECK(rtg_op_bind_signal(op, app));
  atomic_fetch_add(&flight.inflight, 1);
  atomic_store(&op->queued, true);
  return op;
}

static void decrement_between_look_and_load(bool any) {
  hsa_signal_t app = fake_signal_new(1);
  rtg_op *op = submitted(app);
  CHECK_U64(fake_value(app), 2);
  int records = fake.records;
  decrement_at_load = app;
  hsa_signal_value_t v = 1;
  if (any) {
    hsa_signal_condition_t c = HSA_SIGNAL_CONDITION_LT;
    hsa_signal_value_t cmp = 1;
    CHECK_U64(
        rtg_impl.hsa_amd_signal_wait_any(1, &app, &c, &cmp, UINT64_MAX, HSA_WAIT_STATE_BLOCKED, &v),
        0);
  } else {
    v = rtg_impl.hsa_signal_wait_scacquire(app, HSA_SIGNAL_CONDITION_LT, 1, UINT64_MAX,
                                           HSA_WAIT_STATE_BLOCKED);
  }
  CHECK_U64(v, 0);
  /* completed before the wait returned: recorded, raise taken away */
  CHECK_U64(atomic_load(&op->claim) & 3, RTG_OP_DONE);
  CHECK_U64(fake.records, records + 1);
  CHECK_U64(fake.start, 100);
  CHECK_U64(fake.stop, 200);
  CHECK_U64(fake_value(app), 0);
  CHECK(!rtg_sigtrack_busy(app.handle));
  CHECK(rtg_op_waiter_try(op)); /* its waiter frees it */
}

int main(void) {
  fake_hsa_install();
  rtg_real.hsa_signal_load_relaxed = rtg_real.hsa_signal_load_scacquire = load;
  rtg_real.hsa_signal_wait_relaxed = rtg_real.hsa_signal_wait_scacquire = wait;
  rtg_real.hsa_amd_signal_wait_any = wait_any;
  rtg_impl = rtg_real;
  rtg_cfg.profile = true;
  rtg_sigtrack_init();
  rtg_signal_hooks_init();
  decrement_between_look_and_load(false);
  decrement_between_look_and_load(true);
  return check_done("test_signal_hooks");
}
