/* The rescue of a queue destroy that lost its wakeup.
 *
 * ROCR's queue destructor hands the queue over to ROCR's async-events
 * thread: it stores the queue's inactive signal, then sleeps on the one
 * event that every queue's signals share until a handler on that thread
 * answers.  An answer that comes after the destroyer's last look at the
 * signal but before it sleeps leaves the event set, and the async thread,
 * back in its own wait on that event while another queue lives, takes it:
 * the destroyer sleeps for good (ROCR 5.2; later ones pass KFD an event
 * age, which KFD >= 1.14 checks).  The window is tiny, but each intercept
 * queue adds a handler of its own on that thread (its doorbell) and a
 * handover of its own at destroy, which make the async thread late more
 * often; tests/simgpu/progs/sg_destroy_race.c loses the wakeup every time.
 *
 * So while an hsa_queue_destroy has run for RESCUE_AFTER_NS, the writer's
 * periodic task sets that event through the thunk (a spurious wakeup:
 * every waiter looks at its signal again and sleeps on) each time it runs
 * until the destroy returns.  Where the thunk's hsaKmtSetEvent cannot be
 * found (ROCR >= 6.3 has it built in), nothing is done. */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include "destroy_rescue.h"

#include "core/config.h"
#include "core/emit.h"
#include "core/stamp.h"
#include "core/writer.h"

#include <dlfcn.h>
#include <hsa/amd_hsa_queue.h>
#include <hsa/amd_hsa_signal.h>
#include <stdatomic.h>
#include <stdbool.h>

enum { SLOTS = 64 };
/* A destroy normally takes well under 1 ms; a second leaves no doubt even
 * on a loaded machine under sanitizers, where a spurious message on stderr
 * would be noise. */
#define RESCUE_AFTER_NS 1000000000ull

typedef struct watch {
  _Atomic uint64_t since;    /* 0: free */
  _Atomic uint32_t event_id; /* 0: not yet known (a slot just claimed) */
} watch;

static watch watches[SLOTS];

/* libhsakmt's hsaKmtSetEvent reads the id and, to refuse system events,
 * the type, which is 0 (a signal event) here: a zeroed HsaEvent of ample
 * size with the id first stands for the runtime's. */
typedef struct fake_event {
  uint32_t id;
  uint32_t rest[63];
} fake_event;
typedef int (*set_event_fn)(fake_event *);

static set_event_fn set_event(void) {
  static set_event_fn fn;
  static bool looked;
  if (!looked) { /* on the writer's thread only */
    fn = (set_event_fn)dlsym(RTLD_DEFAULT, "hsaKmtSetEvent");
    looked = true;
  }
  return fn;
}

static void tick(void) {
  uint64_t now = rtg_now();
  for (int i = 0; i < SLOTS; i++) {
    uint64_t since = atomic_load_explicit(&watches[i].since, memory_order_acquire);
    if (!since || now - since < RESCUE_AFTER_NS || !set_event()) continue;
    /* (a slot taken over since: a spurious wakeup more, which is harmless) */
    fake_event ev = {.id = atomic_load_explicit(&watches[i].event_id, memory_order_acquire)};
    if (!ev.id || set_event()(&ev) != 0) continue;
    if (rtg_counter_get(RTG_CNT_DESTROY_WAKEUPS) == 0)
      rtg_log(0,
              "hsa_queue_destroy had waited %llu ms for the runtime's handler: woke it "
              "(a lost wakeup of ROCR's queue destroy; see rtg_tracer(7))",
              (unsigned long long)((now - since) / 1000000));
    rtg_count(RTG_CNT_DESTROY_WAKEUPS, 1);
  }
}

int rtg_destroy_rescue_begin(const struct hsa_queue_s *queue) {
  const amd_queue_t *aq = (const amd_queue_t *)queue; /* the hsa_queue_t is its first member */
  hsa_signal_t inactive = aq->queue_inactive_signal;
  if (!inactive.handle) return -1;
  uint32_t id = ((const amd_signal_t *)(uintptr_t)inactive.handle)->event_id;
  if (!id) return -1; /* not an interrupt signal: nobody sleeps on it */
  rtg_writer_every_flush(tick);
  uint64_t now = rtg_now();
  for (int i = 0; i < SLOTS; i++) {
    uint64_t free_slot = 0;
    if (!atomic_compare_exchange_strong(&watches[i].since, &free_slot, now)) continue;
    atomic_store_explicit(&watches[i].event_id, id, memory_order_release);
    return i;
  }
  return -1;
}

void rtg_destroy_rescue_end(int slot) {
  if (slot < 0) return;
  atomic_store_explicit(&watches[slot].event_id, 0, memory_order_relaxed);
  atomic_store_explicit(&watches[slot].since, 0, memory_order_release);
}

void rtg_destroy_rescue_after_fork(void) {
  for (int i = 0; i < SLOTS; i++) rtg_destroy_rescue_end(i);
}
