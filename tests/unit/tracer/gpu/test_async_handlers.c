/* The application's async handlers (gpu/async_handlers.c, over sigtrack.c
 * and completion.c on a stand-in runtime that only keeps registrations):
 * the handler's wrapper completes a quiet op before the application's
 * handler sees the value; a handler registered per op allocates nothing
 * after its signal's first; a signal destroyed with a handler registered
 * leaves the next signal at its handle watched exactly by its own. */
#include "check.h"
#include "core/config.h"
#include "fake_hsa.h"

#include <stdlib.h>

/* every allocation of the process, counted (not under a sanitizer, whose
 * allocator this would bypass) */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define COUNT_ALLOCS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define COUNT_ALLOCS 0
#endif
#endif
#ifndef COUNT_ALLOCS
#define COUNT_ALLOCS 1
#endif
static _Atomic long allocs;
#if COUNT_ALLOCS
extern void *__libc_malloc(size_t), *__libc_calloc(size_t, size_t), *__libc_realloc(void *, size_t);
extern void __libc_free(void *);
void *malloc(size_t n) {
  allocs++;
  return __libc_malloc(n);
}
void *calloc(size_t n, size_t m) {
  allocs++;
  return __libc_calloc(n, m);
}
void *realloc(void *p, size_t n) {
  allocs++;
  return __libc_realloc(p, n);
}
void free(void *p) {
  __libc_free(p);
}
#endif

/* the runtime's registrations, as its async-events thread would run them */
enum { MAX_REG = 8 };
static struct reg {
  hsa_signal_t sig;
  hsa_amd_signal_handler fn;
  void *arg;
} regs[MAX_REG];
static int n_regs;

static hsa_status_t register_handler(hsa_signal_t sig, hsa_signal_condition_t c,
                                     hsa_signal_value_t v, hsa_amd_signal_handler fn, void *arg) {
  (void)c, (void)v;
  if (n_regs == MAX_REG) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  regs[n_regs++] = (struct reg){sig, fn, arg};
  return HSA_STATUS_SUCCESS;
}

/* The runtime runs registration i with value; a handler returning false
 * is dropped (the last registration takes its place). */
static bool run_handler(int i, hsa_signal_value_t value) {
  bool keep = regs[i].fn(value, regs[i].arg);
  if (!keep) regs[i] = regs[--n_regs];
  return keep;
}

static hsa_signal_value_t load(hsa_signal_t s) {
  return fake_value(s);
}
static hsa_signal_value_t wait(hsa_signal_t s, hsa_signal_condition_t c, hsa_signal_value_t cmp,
                               uint64_t timeout, hsa_wait_state_t state) {
  (void)c, (void)cmp, (void)timeout, (void)state;
  return fake_value(s);
}

/* the application's handler: what it saw, and the records made by then */
static int app_calls, records_seen;
static hsa_signal_value_t value_seen;
static bool app_handler(hsa_signal_value_t value, void *arg) {
  (void)arg;
  app_calls++;
  value_seen = value;
  records_seen = fake.records;
  return false;
}

static rtg_op_flight flight;

/* each op registers a handler on its signal before its submit: the op is
 * quiet, completed in the wrapper before the application's handler runs;
 * after the first op nothing is allocated per op */
static void handler_per_op(void) {
  hsa_signal_t s = fake_signal_new(1);
  long before = 0;
  for (int i = 0; i < 100; i++) {
    if (i == 1) before = allocs;
    fake_amd(s)->value = 1;
    CHECK(rtg_impl.hsa_amd_signal_async_handler(s, HSA_SIGNAL_CONDITION_LT, 1, app_handler, NULL) ==
          HSA_STATUS_SUCCESS);
    CHECK(rtg_async_watched(s.handle));
    rtg_op *op = rtg_op_alloc();
    op->kind = RTG_OP_DISPATCH;
    op->flight = &flight;
    op->quiet = rtg_async_watched(s.handle);
    CHECK(rtg_op_bind_signal(op, s));
    CHECK(op->quiet && op->signal.handle == s.handle);
    CHECK_U64(fake_value(s), 1); /* not raised */
    atomic_fetch_add(&flight.inflight, 1);
    atomic_store(&op->queued, true);
    int records = fake.records, calls = app_calls;
    fake_hw_done(s, 10, 20 + (uint64_t)i);
    CHECK_U64(n_regs, 1);
    CHECK(!run_handler(0, fake_value(s)));
    CHECK_U64(app_calls, calls + 1);
    CHECK_U64(value_seen, 0);
    CHECK_U64(records_seen, records + 1); /* its times read first */
    CHECK_U64(fake.stop, 20 + (uint64_t)i);
    CHECK(!rtg_async_watched(s.handle));
    CHECK(rtg_op_waiter_try(op)); /* its waiter frees it */
  }
  if (COUNT_ALLOCS) CHECK_U64(allocs - before, 0);
  rtg_async_forget(s.handle);
}

/* A signal destroyed while its handler is registered: a new signal at the
 * same handle is watched by its own handler only, through the old one's
 * drop, and every registration is freed (the sanitizers' builds check). */
static void destroyed_with_handler(void) {
  hsa_signal_t s = fake_signal_new(1);
  const hsa_signal_condition_t lt = HSA_SIGNAL_CONDITION_LT;
  CHECK(!rtg_impl.hsa_amd_signal_async_handler(s, lt, 1, app_handler, NULL));
  CHECK(!rtg_impl.hsa_amd_signal_async_handler(s, lt, 1, app_handler, NULL)); /* a second */
  CHECK(rtg_async_watched(s.handle));
  rtg_async_forget(s.handle); /* destroyed; the runtime calls them once more */
  CHECK(!rtg_async_watched(s.handle));
  CHECK(!rtg_impl.hsa_amd_signal_async_handler(s, lt, 1, app_handler, NULL)); /* the next */
  CHECK_U64(n_regs, 3);
  CHECK(!run_handler(0, 0)); /* the destroyed signal's first: the new one's takes its place */
  CHECK(rtg_async_watched(s.handle));
  CHECK(!run_handler(1, 0)); /* the destroyed signal's second */
  CHECK(rtg_async_watched(s.handle));
  CHECK(!run_handler(0, 0)); /* the new signal's */
  CHECK(!rtg_async_watched(s.handle));
  CHECK_U64(n_regs, 0);
  rtg_async_forget(s.handle);
}

int main(void) {
  fake_hsa_install();
  rtg_real.hsa_signal_load_relaxed = rtg_real.hsa_signal_load_scacquire = load;
  rtg_real.hsa_signal_wait_relaxed = rtg_real.hsa_signal_wait_scacquire = wait;
  rtg_real.hsa_amd_signal_async_handler = register_handler;
  rtg_impl = rtg_real;
  rtg_cfg.profile = true;
  rtg_sigtrack_init();
  rtg_signal_hooks_init();
  CHECK(rtg_impl.hsa_amd_signal_async_handler != register_handler);
  handler_per_op();
  destroyed_with_handler();
  return check_done("test_async_handlers");
}
