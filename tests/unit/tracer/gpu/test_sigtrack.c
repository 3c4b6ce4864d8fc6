/* Signal tracking (gpu/sigtrack.c, with the op and tool-signal pools of
 * op_pool.c): which signal the hardware completes for an op, and what the
 * application's signal holds at each step, over a stand-in runtime. */
#include "check.h"
#include "core/emit.h"
#include "fake_hsa.h"

static rtg_op *op_new(void) {
  rtg_op *op = rtg_op_alloc();
  op->kind = RTG_OP_DISPATCH;
  return op;
}

/* The first op of a signal owns it, raised by one; a second one in flight
 * gets a tool signal, forwarded once the owner is done, in that order. */
static void owner_and_forward(void) {
  hsa_signal_t app = fake_signal_new(2); /* two ops to count down */
  rtg_op *a = op_new(), *b = op_new();
  CHECK(!rtg_sigtrack_busy(app.handle));
  CHECK(rtg_op_bind_signal(a, app));
  CHECK_U64(a->signal.handle, app.handle);
  CHECK(!a->tool_signal && !a->forward);
  CHECK_U64(fake_value(app), 3);
  CHECK_U64(a->wait_below, 3);
  rtg_owner_ref o;
  CHECK(rtg_sigtrack_owner(app.handle, &o));
  CHECK(o.op == a && o.alone && !o.quiet);
  CHECK_U64(o.wait_below, 3);
  CHECK(rtg_sigtrack_busy(app.handle));

  CHECK(rtg_op_bind_signal(b, app));
  CHECK(b->forward && b->tool_signal);
  CHECK(b->signal.handle != app.handle);
  CHECK_U64(b->wait_below, 1);
  CHECK_U64(fake_value(app), 3); /* not raised again */
  CHECK(rtg_sigtrack_owner(app.handle, &o));
  CHECK(o.op == a && !o.alone);

  /* the forward finishes first: kept until the owner's decrement */
  fake_hw_done(b->signal, 10, 20);
  int subs = fake.subtracts;
  CHECK(rtg_op_release_signal(b));
  CHECK_U64(fake.subtracts, subs);
  CHECK_U64(fake_value(app), 3);
  /* the owner: its raise taken away, then the forward done on the app's
   * signal with the forward's times */
  fake_hw_done(app, 5, 30);
  CHECK(!rtg_op_release_signal(a));
  CHECK_U64(fake_value(app), 0);
  CHECK_U64(fake_amd(app)->start_ts, 10);
  CHECK_U64(fake_amd(app)->end_ts, 20);
  CHECK(!rtg_sigtrack_owner(app.handle, &o));
  CHECK(!rtg_sigtrack_busy(app.handle));
  rtg_op_free(a);
  /* b was freed by the owner's release: the pool hands it out again */
  rtg_op *c = rtg_op_alloc(), *d = rtg_op_alloc();
  CHECK(c == b || d == b || c == a || d == a);
  rtg_op_free(c);
  rtg_op_free(d);
}

/* A forward finishing after its owner is done on the spot. */
static void forward_after_owner(void) {
  hsa_signal_t app = fake_signal_new(2);
  rtg_op *a = op_new(), *b = op_new();
  CHECK(rtg_op_bind_signal(a, app) && rtg_op_bind_signal(b, app));
  fake_hw_done(app, 1, 2);
  CHECK(!rtg_op_release_signal(a));
  CHECK_U64(fake_value(app), 1);
  CHECK(rtg_sigtrack_busy(app.handle)); /* b still in flight */
  rtg_owner_ref o;
  CHECK(!rtg_sigtrack_owner(app.handle, &o)); /* but owned by nobody */
  fake_hw_done(b->signal, 3, 4);
  CHECK(!rtg_op_release_signal(b));
  CHECK_U64(fake_value(app), 0);
  CHECK_U64(fake_amd(app)->end_ts, 4);
  CHECK(!rtg_sigtrack_busy(app.handle));
  /* the signal is free again: the next op owns it */
  rtg_op *c = op_new();
  CHECK(rtg_op_bind_signal(c, app) && !c->forward);
  CHECK_U64(fake_value(app), 1);
  rtg_op_unbind_signal(c); /* its submission failed: the raise undone */
  CHECK_U64(fake_value(app), 0);
  CHECK(!rtg_sigtrack_busy(app.handle));
  rtg_op_free(a), rtg_op_free(b), rtg_op_free(c);
}

/* The forwards in flight, listed oldest first once no owner is in flight
 * (a thread waiting on a count completes them, signal_hooks.c), each by
 * its tool signal; a released one leaves the list.  Their tool signals
 * are a pool of their own (with an event): not handed to a packet
 * without a signal. */
static void forwards_listed(void) {
  hsa_signal_t app = fake_signal_new(3);
  rtg_op *a = op_new(), *b = op_new(), *c = op_new();
  CHECK(rtg_op_bind_signal(a, app) && rtg_op_bind_signal(b, app) && rtg_op_bind_signal(c, app));
  rtg_owner_ref f[4];
  CHECK_U64(rtg_sigtrack_forwards(app.handle, f, 4), 0); /* the owner first */
  fake_hw_done(app, 1, 2);
  CHECK(!rtg_op_release_signal(a));
  CHECK_U64(rtg_sigtrack_forwards(app.handle, f, 4), 2);
  CHECK(f[0].op == b && f[1].op == c);
  CHECK_U64(f[0].signal, b->signal.handle);
  CHECK_U64(f[0].wait_below, 1);
  CHECK(!f[0].quiet && !rtg_owner_hw_done(&f[0]));
  CHECK_U64(rtg_sigtrack_forwards(app.handle, f, 1), 1); /* at most max */
  CHECK(f[0].op == b);
  fake_hw_done(c->signal, 3, 4);
  CHECK(!rtg_op_release_signal(c));
  CHECK_U64(fake_value(app), 1);
  CHECK_U64(rtg_sigtrack_forwards(app.handle, f, 4), 1);
  CHECK(f[0].op == b);
  hsa_signal_t fwd_signal = c->signal;
  rtg_op *d = op_new();
  CHECK(rtg_op_bind_signal(d, (hsa_signal_t){0}));
  CHECK(d->signal.handle != fwd_signal.handle);
  rtg_op_unbind_signal(d);
  fake_hw_done(b->signal, 5, 6);
  CHECK(!rtg_op_release_signal(b));
  CHECK_U64(fake_value(app), 0);
  CHECK_U64(rtg_sigtrack_forwards(app.handle, f, 4), 0);
  CHECK(!rtg_sigtrack_busy(app.handle));
  /* a forward whose submission failed leaves the list too */
  rtg_op *e = op_new(), *g = op_new();
  CHECK(rtg_op_bind_signal(e, app) && rtg_op_bind_signal(g, app) && g->forward);
  fake_hw_done(app, 7, 8);
  CHECK(!rtg_op_release_signal(e));
  CHECK_U64(rtg_sigtrack_forwards(app.handle, f, 4), 1);
  rtg_op_unbind_signal(g);
  CHECK_U64(rtg_sigtrack_forwards(app.handle, f, 4), 0);
  CHECK(!rtg_sigtrack_busy(app.handle));
  rtg_op_free(a), rtg_op_free(b), rtg_op_free(c), rtg_op_free(d), rtg_op_free(e), rtg_op_free(g);
}

/* A quiet owner keeps the application's value; its end time is zeroed. */
static void quiet_owner(void) {
  hsa_signal_t app = fake_signal_new(1);
  fake_amd(app)->end_ts = 99;
  rtg_op *a = op_new();
  a->quiet = true;
  CHECK(rtg_op_bind_signal(a, app));
  CHECK_U64(fake_value(app), 1);
  CHECK_U64(a->wait_below, 1);
  CHECK_U64(fake_amd(app)->end_ts, 0);
  rtg_owner_ref o;
  CHECK(rtg_sigtrack_owner(app.handle, &o) && o.quiet);
  /* a second op of it is forwarded, and is never quiet */
  rtg_op *b = op_new();
  b->quiet = true;
  CHECK(rtg_op_bind_signal(b, app));
  CHECK(b->forward && !b->quiet);
  fake_hw_done(app, 1, 2);
  int subs = fake.subtracts;
  CHECK(!rtg_op_release_signal(a));
  CHECK_U64(fake.subtracts, subs); /* nothing to take away */
  CHECK_U64(fake_value(app), 0);
  fake_hw_done(b->signal, 3, 4);
  CHECK(!rtg_op_release_signal(b));
  CHECK_U64(fake_value(app), -1);
  rtg_op_free(a), rtg_op_free(b);
}

/* A packet without a signal: a pooled tool signal, reused after release. */
static void tool_signals(void) {
  rtg_tool_signals_destroy(); /* the forwards' before */
  CHECK_U64(fake.signals_live, 0);
  rtg_op *a = op_new();
  int live = fake.signals_live;
  CHECK(rtg_op_bind_signal(a, (hsa_signal_t){0}));
  CHECK(a->tool_signal && !a->forward);
  CHECK_U64(a->wait_below, 1);
  CHECK_U64(fake_value(a->signal), 1);
  CHECK_U64(fake.signals_live, live + 1);
  hsa_signal_t s = a->signal;
  fake_hw_done(s, 1, 2);
  CHECK(!rtg_op_release_signal(a));
  rtg_op *b = op_new();
  CHECK(rtg_op_bind_signal(b, (hsa_signal_t){0}));
  CHECK_U64(b->signal.handle, s.handle); /* from the pool */
  CHECK_U64(fake.signals_live, live + 1);
  rtg_op_unbind_signal(b);
  rtg_tool_signals_destroy();
  CHECK_U64(fake.signals_live, live);
  rtg_op_free(a), rtg_op_free(b);
}

/* The application destroys a signal while its owner and a forward still
 * run: the owner is counted as unfinished, landed and left done for its
 * waiter to free; the forward, finishing later, never touches the handle;
 * a new signal in the same memory gets an owner of its own. */
static void orphaned(void) {
  rtg_op_flight flight = {0};
  hsa_signal_t app = fake_signal_new(2);
  rtg_op *a = op_new(), *b = op_new();
  CHECK(rtg_op_bind_signal(a, app));
  CHECK(rtg_op_bind_signal(b, app));
  CHECK(b->forward);
  a->flight = b->flight = &flight;
  atomic_store(&flight.inflight, 2);
  uint32_t claim = atomic_load(&a->claim);
  rtg_sigtrack_orphan(app.handle); /* not yet queued: left as it is */
  CHECK(rtg_sigtrack_busy(app.handle));
  atomic_store(&a->queued, true), atomic_store(&b->queued, true);
  uint64_t unfinished = rtg_counter_get(RTG_CNT_UNFINISHED);
  rtg_sigtrack_orphan(app.handle);
  CHECK(!rtg_sigtrack_busy(app.handle));
  rtg_owner_ref o;
  CHECK(!rtg_sigtrack_owner(app.handle, &o));
  CHECK_U64(rtg_counter_get(RTG_CNT_UNFINISHED), unfinished + 1);
  CHECK_U64(atomic_load(&flight.inflight), 1);
  CHECK_U64(atomic_load(&a->claim), claim | RTG_OP_DONE);
  CHECK(rtg_op_waiter_try(a)); /* its waiter frees it */

  /* the runtime's next signal in that memory, another value */
  fake_amd(app)->value = 5;
  rtg_op *c = op_new();
  CHECK(rtg_op_bind_signal(c, app));
  CHECK(!c->forward); /* an owner of its own */
  CHECK_U64(fake_value(app), 6);
  int subs = fake.subtracts;
  fake_hw_done(b->signal, 10, 20);
  CHECK(!rtg_op_release_signal(b)); /* not kept behind c: not the same signal */
  CHECK_U64(fake.subtracts, subs);
  CHECK_U64(fake_value(app), 6);
  CHECK(rtg_sigtrack_owner(app.handle, &o));
  CHECK(o.op == c && o.alone);
  fake_hw_done(app, 30, 40);
  CHECK(!rtg_op_release_signal(c));
  CHECK_U64(fake_value(app), 4);
  CHECK(!rtg_sigtrack_busy(app.handle));
  rtg_op_free(b), rtg_op_free(c);
}

int main(void) {
  fake_hsa_install();
  rtg_sigtrack_init();
  owner_and_forward();
  forward_after_owner();
  quiet_owner();
  forwards_listed();
  tool_signals();
  orphaned();
  return check_done("test_sigtrack");
}
