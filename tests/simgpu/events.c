/* events.c - KFD events: the interrupts of the simulated GPU.
 *
 * ROCR gives every interrupt-capable signal an event; the signal's
 * event_mailbox_ptr/event_id say which event to raise when the "GPU" changes
 * the signal (aql_queue.c does that), and host threads block in
 * hsaKmtWaitOnEvent. All events share one mutex and condition variable: waits
 * are rare and short compared with the simulated work.
 *
 * Two notices go to the monitor (monitor.c): a host SetEvent may satisfy a
 * barrier a queue waits for, and a host about to block is waiting for the
 * GPU, so parked queues are checked at once instead of at the next poll. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include "sim.h"

#define MAX_EVENTS 4096

/* Semantics of KFD: setting an event wakes every thread waiting on it at
 * that moment; an auto-reset event with waiters then stays unsignaled, one
 * without waiters stays signaled until a wait consumes it. ROCR relies on
 * this: a queue's destructor and ROCR's async-event thread wait on the same
 * event, and both must wake. Waiters see a set by the generation moving. */
typedef struct sim_event {
  HsaEvent ev; /* first: ROCR holds HsaEvent* */
  int signaled;
  int manual_reset;
  int waiters;
  uint64_t gen;
} sim_event_t;

static sim_event_t *events[MAX_EVENTS];
static uint64_t mailbox[MAX_EVENTS]; /* like KFD's event page */
static uint32_t next_id = 1;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void init(void) {
  pthread_condattr_t a;
  pthread_condattr_init(&a);
  pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
  pthread_cond_init(&cv, &a);
  pthread_condattr_destroy(&a);
}

HSAKMT_STATUS HSAKMTAPI hsaKmtCreateEvent(HsaEventDescriptor *d, bool manual_reset, bool signaled,
                                          HsaEvent **out) {
  pthread_once(&once, init);
  sim_event_t *e = calloc(1, sizeof *e);
  if (!e) return HSAKMT_STATUS_NO_MEMORY;
  pthread_mutex_lock(&mu);
  uint32_t id = 0;
  for (uint32_t i = 0; i < MAX_EVENTS - 1 && !id; i++) {
    uint32_t c = 1 + (next_id - 1 + i) % (MAX_EVENTS - 1);
    if (!events[c]) id = c;
  }
  if (!id) {
    pthread_mutex_unlock(&mu);
    free(e);
    return HSAKMT_STATUS_NO_MEMORY;
  }
  next_id = id + 1;
  e->ev.EventId = id;
  e->ev.EventData.EventType = d->EventType;
  e->ev.EventData.HWData1 = id;
  e->ev.EventData.HWData2 = (uint64_t)(uintptr_t)&mailbox[id]; /* the GPU writes here */
  e->ev.EventData.HWData3 = id;
  e->ev.EventData.EventData.SyncVar = d->SyncVar;
  e->signaled = signaled;
  e->manual_reset = manual_reset;
  events[id] = e;
  pthread_mutex_unlock(&mu);
  *out = &e->ev;
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtDestroyEvent(HsaEvent *ev) {
  if (!ev || ev->EventId == 0 || ev->EventId >= MAX_EVENTS) return HSAKMT_STATUS_INVALID_HANDLE;
  pthread_mutex_lock(&mu);
  events[ev->EventId] = NULL;
  pthread_mutex_unlock(&mu);
  free(ev);
  return HSAKMT_STATUS_SUCCESS;
}

static void set_locked(sim_event_t *e) {
  e->gen++;
  e->signaled = e->manual_reset || e->waiters == 0;
  pthread_cond_broadcast(&cv);
}

/* By id, as libhsakmt passes only the id to KFD: a caller may hold an
 * HsaEvent of its own that names an event (rtg's queue-destroy rescue). */
HSAKMT_STATUS HSAKMTAPI hsaKmtSetEvent(HsaEvent *ev) {
  if (!ev) return HSAKMT_STATUS_INVALID_HANDLE;
  pthread_once(&once, init);
  pthread_mutex_lock(&mu);
  sim_event_t *e = ev->EventId < MAX_EVENTS ? events[ev->EventId] : NULL;
  if (e) set_locked(e);
  pthread_mutex_unlock(&mu);
  if (!e) return HSAKMT_STATUS_ERROR;
  sim_kick();
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtResetEvent(HsaEvent *ev) {
  if (!ev) return HSAKMT_STATUS_INVALID_HANDLE;
  pthread_mutex_lock(&mu);
  ((sim_event_t *)ev)->signaled = 0;
  pthread_mutex_unlock(&mu);
  return HSAKMT_STATUS_SUCCESS;
}

void sim_event_fire(uint32_t id) {
  if (id == 0 || id >= MAX_EVENTS) return;
  pthread_once(&once, init);
  pthread_mutex_lock(&mu);
  if (events[id]) set_locked(events[id]);
  pthread_mutex_unlock(&mu);
}

#define MAX_WAIT 64 /* ROCR waits on a handful of events at a time */

/* seen[i]: generation of evs[i] when the wait began. */
static int satisfied_locked(HsaEvent *evs[], HSAuint32 n, bool all, const uint64_t *seen) {
  uint32_t cnt = 0;
  for (uint32_t i = 0; i < n; i++) {
    sim_event_t *e = (sim_event_t *)evs[i];
    if (e && (e->signaled || e->gen != seen[i])) cnt++;
  }
  if (!(all ? cnt == n : cnt > 0)) return 0;
  for (uint32_t i = 0; i < n; i++) { /* consume auto-reset events */
    sim_event_t *e = (sim_event_t *)evs[i];
    if (e && e->signaled && !e->manual_reset) e->signaled = 0;
  }
  return 1;
}

static void add_waiters_locked(HsaEvent *evs[], HSAuint32 n, int d, uint64_t *seen) {
  for (uint32_t i = 0; i < n; i++) {
    sim_event_t *e = (sim_event_t *)evs[i];
    if (!e) continue;
    e->waiters += d;
    if (seen) seen[i] = e->gen;
  }
}

HSAKMT_STATUS HSAKMTAPI hsaKmtWaitOnMultipleEvents(HsaEvent *evs[], HSAuint32 n, bool all,
                                                   HSAuint32 ms) {
  pthread_once(&once, init);
  sim_wait_entry_delay(n, ms);
  struct timespec dl;
  clock_gettime(CLOCK_MONOTONIC, &dl);
  dl.tv_sec += ms / 1000;
  dl.tv_nsec += (long)(ms % 1000) * 1000000L;
  if (dl.tv_nsec >= 1000000000L) {
    dl.tv_sec++;
    dl.tv_nsec -= 1000000000L;
  }
  HSAKMT_STATUS ret = HSAKMT_STATUS_SUCCESS;
  int kicked = 0;
  uint64_t seen[MAX_WAIT];
  if (n > MAX_WAIT) return HSAKMT_STATUS_INVALID_PARAMETER;
  pthread_mutex_lock(&mu);
  add_waiters_locked(evs, n, 1, seen);
  while (!satisfied_locked(evs, n, all, seen)) {
    if (ms == 0) {
      ret = HSAKMT_STATUS_WAIT_TIMEOUT;
      break;
    }
    if (!kicked) { /* the host waits for the GPU: look at the queues now */
      kicked = 1;
      pthread_mutex_unlock(&mu);
      sim_kick();
      pthread_mutex_lock(&mu);
      continue;
    }
    int r = ms == HSA_EVENTTIMEOUT_INFINITE ? pthread_cond_wait(&cv, &mu)
                                            : pthread_cond_timedwait(&cv, &mu, &dl);
    if (r == ETIMEDOUT && !satisfied_locked(evs, n, all, seen)) {
      ret = HSAKMT_STATUS_WAIT_TIMEOUT;
      break;
    }
    if (r == ETIMEDOUT) break;
  }
  add_waiters_locked(evs, n, -1, NULL);
  pthread_mutex_unlock(&mu);
  return ret;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtWaitOnEvent(HsaEvent *ev, HSAuint32 ms) {
  return hsaKmtWaitOnMultipleEvents(&ev, 1, true, ms);
}
