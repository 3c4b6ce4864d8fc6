/* events.c - KFD events, the interrupts of the simulated GPU, with the
 * semantics of the kernel's kfd_events.c: setting an event increments its
 * age and wakes every current waiter; an auto-reset event with waiters then
 * stays unsignaled, otherwise it stays signaled until a wait consumes it. A
 * wait passing a non-zero last_event_age is satisfied at once when the age
 * has moved on since (a set the caller has not seen yet), and gets the
 * current age back. Ids are slots of the thunk's event page (4096, id 0
 * unused) and are reused after destruction, as KFD does. */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/kfd_ioctl.h>
#include <string.h>
#include <time.h>

#include "kfdsim.h"

#define MAX_EVENTS 4096 /* KFD_SIGNAL_EVENT_LIMIT */
#define MAX_WAIT 64     /* ROCR waits on a handful at a time */

typedef struct event {
  int used, auto_reset, signaled, waiters;
  uint32_t type;
  uint64_t age;
} event_t;

static event_t ev[MAX_EVENTS];
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

int kfdsim_create_event(void *arg) {
  struct kfd_ioctl_create_event_args *a = arg;
  pthread_once(&once, init);
  pthread_mutex_lock(&mu);
  uint32_t id = 0;
  for (uint32_t i = 0; i < MAX_EVENTS - 1 && !id; i++) {
    uint32_t c = 1 + (next_id - 1 + i) % (MAX_EVENTS - 1);
    if (!ev[c].used) id = c;
  }
  if (id) {
    next_id = id + 1;
    ev[id] = (event_t){1, !!a->auto_reset, 0, 0, a->event_type, 1};
  }
  pthread_mutex_unlock(&mu);
  if (!id) return -ENOMEM;
  /* The thunk hands over its event page (a buffer object) with the first
   * event; a non-zero answer tells it the page is in use, and it then gives
   * each signal event the mailbox &page[slot] (amd_signal_t's
   * event_mailbox_ptr), which the simulated GPU writes before it fires. */
  if (!a->event_page_offset) a->event_page_offset = 1ull << 12;
  a->event_id = id;
  a->event_slot_index = id;
  a->event_trigger_data = id;
  return 0;
}

int kfdsim_destroy_event(void *arg) {
  struct kfd_ioctl_destroy_event_args *a = arg;
  if (!a->event_id || a->event_id >= MAX_EVENTS) return -EINVAL;
  pthread_mutex_lock(&mu);
  int was = ev[a->event_id].used;
  ev[a->event_id].used = 0;
  pthread_mutex_unlock(&mu);
  return was ? 0 : -EINVAL;
}

static void set_locked(event_t *e) {
  e->age++;
  e->signaled = !e->auto_reset || e->waiters == 0;
  pthread_cond_broadcast(&cv);
}

void sim_event_fire(uint32_t id) {
  if (!id || id >= MAX_EVENTS) return;
  pthread_once(&once, init);
  pthread_mutex_lock(&mu);
  if (ev[id].used) set_locked(&ev[id]);
  pthread_mutex_unlock(&mu);
}

int kfdsim_set_event(void *arg) {
  struct kfd_ioctl_set_event_args *a = arg;
  if (!a->event_id || a->event_id >= MAX_EVENTS) return -EINVAL;
  pthread_once(&once, init);
  pthread_mutex_lock(&mu);
  int used = ev[a->event_id].used;
  if (used) set_locked(&ev[a->event_id]);
  pthread_mutex_unlock(&mu);
  sim_kick(); /* a host set may release a barrier a queue waits for */
  return used ? 0 : -EINVAL;
}

int kfdsim_reset_event(void *arg) {
  struct kfd_ioctl_reset_event_args *a = arg;
  if (!a->event_id || a->event_id >= MAX_EVENTS) return -EINVAL;
  pthread_mutex_lock(&mu);
  ev[a->event_id].signaled = 0;
  pthread_mutex_unlock(&mu);
  return 0;
}

/* last_event_age is the first word of kfd_event_data's union (the
 * kfd_hsa_signal_event_data of KFD >= 1.14 headers). */
static uint64_t *age_of(struct kfd_event_data *d) {
  return (uint64_t *)(void *)d;
}

static int ready_locked(struct kfd_event_data *d, uint32_t n, const uint64_t *start, int all) {
  uint32_t cnt = 0;
  for (uint32_t i = 0; i < n; i++) {
    const event_t *e = &ev[d[i].event_id];
    uint64_t last = e->type == KFD_IOC_EVENT_SIGNAL ? *age_of(&d[i]) : 0;
    cnt += e->used && (e->signaled || e->age != start[i] || (last && e->age != last));
  }
  return all ? cnt == n : cnt > 0;
}

int kfdsim_wait_events(void *arg) {
  struct kfd_ioctl_wait_events_args *a = arg;
  struct kfd_event_data *d = (struct kfd_event_data *)(uintptr_t)a->events_ptr;
  uint32_t n = a->num_events;
  if (!d || n > MAX_WAIT) return -EINVAL;
  for (uint32_t i = 0; i < n; i++)
    if (!d[i].event_id || d[i].event_id >= MAX_EVENTS) return -EINVAL;
  pthread_once(&once, init);
  sim_wait_entry_delay(n, a->timeout);
  struct timespec dl;
  clock_gettime(CLOCK_MONOTONIC, &dl);
  dl.tv_sec += a->timeout / 1000;
  dl.tv_nsec += (long)(a->timeout % 1000) * 1000000L;
  if (dl.tv_nsec >= 1000000000L) dl.tv_sec++, dl.tv_nsec -= 1000000000L;
  uint64_t start[MAX_WAIT] = {0};
  int timed_out = 0, kicked = 0;
  pthread_mutex_lock(&mu);
  for (uint32_t i = 0; i < n; i++) {
    start[i] = ev[d[i].event_id].age;
    ev[d[i].event_id].waiters++;
  }
  while (!ready_locked(d, n, start, a->wait_for_all)) {
    if (a->timeout == 0) {
      timed_out = 1;
      break;
    }
    if (!kicked) { /* the host waits for the GPU: look at the queues now */
      kicked = 1;
      pthread_mutex_unlock(&mu);
      sim_kick();
      pthread_mutex_lock(&mu);
      continue;
    }
    if (a->timeout == 0xffffffffu)
      pthread_cond_wait(&cv, &mu);
    else if (pthread_cond_timedwait(&cv, &mu, &dl) == ETIMEDOUT &&
             !ready_locked(d, n, start, a->wait_for_all)) {
      timed_out = 1;
      break;
    }
  }
  for (uint32_t i = 0; i < n; i++) {
    event_t *e = &ev[d[i].event_id];
    e->waiters--;
    if (!timed_out && e->auto_reset) e->signaled = 0;
    if (e->type == KFD_IOC_EVENT_SIGNAL) *age_of(&d[i]) = e->age;
  }
  pthread_mutex_unlock(&mu);
  a->wait_result = timed_out ? KFD_IOC_WAIT_RESULT_TIMEOUT : KFD_IOC_WAIT_RESULT_COMPLETE;
  return 0;
}
