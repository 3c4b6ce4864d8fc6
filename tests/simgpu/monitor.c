/* monitor.c - how simgpu waits without spinning.
 *
 * Real doorbells interrupt the hardware; ours are plain memory that ROCR
 * writes, so somebody has to look. A queue worker with nothing to do polls
 * its own queue for a short hot period (SIMGPU_POLL_US apart, so a stream of
 * packets flows with microsecond latency), then parks on its condition
 * variable. A single monitor thread then checks the parked queues' "ready"
 * predicates, starting SIMGPU_POLL_US apart and doubling up to SIMGPU_IDLE_US.
 * So an idle program costs one wake-up per SIMGPU_IDLE_US whatever the
 * number of queues, and sim_kick() (a host SetEvent, or a host about to block
 * on an event) looks at the parked queues at once, in the kicking thread. */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <time.h>

#include "sim_core.h"

#define HOT_NS 2000000ull /* a worker polls by itself this long before parking */

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t mon_cv;
static sim_queue_t *queues; /* every live queue; parked ones have ->parked set */
static int nparked;
static int kicked;
static pthread_t thread;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void abs_after(struct timespec *ts, uint64_t ns) {
  clock_gettime(CLOCK_MONOTONIC, ts);
  ts->tv_sec += (time_t)(ns / 1000000000ull);
  ts->tv_nsec += (long)(ns % 1000000000ull);
  if (ts->tv_nsec >= 1000000000L) {
    ts->tv_sec++;
    ts->tv_nsec -= 1000000000L;
  }
}

/* Wake the parked workers whose queue can go on (or is being destroyed).
 * mu held. */
static void unpark_ready_locked(void) {
  for (sim_queue_t *q = queues; q; q = q->mon_next) {
    if (q->parked && (q->stop || q->ready(q))) {
      q->parked = 0;
      nparked--;
      pthread_cond_signal(&q->cv);
    }
  }
}

static void *monitor(void *arg) {
  (void)arg;
  sim_thread_setup("simgpu-monitor");
  uint64_t interval = sim_cfg.poll_ns;
  pthread_mutex_lock(&mu);
  for (;;) {
    while (!nparked && !kicked) pthread_cond_wait(&mon_cv, &mu);
    if (kicked) {
      kicked = 0;
      interval = sim_cfg.poll_ns;
    }
    unpark_ready_locked();
    if (!nparked) continue;
    struct timespec ts;
    abs_after(&ts, interval);
    pthread_cond_timedwait(&mon_cv, &mu, &ts);
    interval = interval * 2 < sim_cfg.idle_ns ? interval * 2 : sim_cfg.idle_ns;
  }
  return NULL;
}

/* A forked child has none of the parent's threads: neither the monitor nor
 * the workers of the queues it lists. Its runtime may go on with the state
 * it inherited (ROCR opened before the fork, as RCCL's test bed does in
 * each child it forks), so the child starts over with no queue and starts
 * its own monitor at its first queue or kick; without that, a worker the
 * child parks is never woken and its next packet never runs. */
static void after_fork_child(void) {
  static const pthread_once_t fresh = PTHREAD_ONCE_INIT;
  pthread_mutex_init(&mu, NULL);
  queues = NULL;
  nparked = 0;
  kicked = 0;
  once = fresh;
}

static void init(void) {
  static int atfork_set;
  if (!atfork_set) atfork_set = pthread_atfork(NULL, NULL, after_fork_child) == 0;
  pthread_condattr_t a;
  pthread_condattr_init(&a);
  pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
  pthread_cond_init(&mon_cv, &a);
  pthread_condattr_destroy(&a);
  /* The monitor lives as long as the process; it holds nothing that needs
   * cleaning up and sleeps forever once no queue is parked. */
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  pthread_create(&thread, NULL, monitor, NULL);
  pthread_detach(thread);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
}

void sim_monitor_add(sim_queue_t *q) {
  pthread_once(&once, init);
  pthread_cond_init(&q->cv, NULL);
  pthread_mutex_lock(&mu);
  q->mon_next = queues;
  queues = q;
  pthread_mutex_unlock(&mu);
}

void sim_monitor_remove(sim_queue_t *q) {
  pthread_mutex_lock(&mu);
  for (sim_queue_t **pp = &queues; *pp; pp = &(*pp)->mon_next) {
    if (*pp == q) {
      *pp = q->mon_next;
      break;
    }
  }
  if (q->parked) {
    q->parked = 0;
    nparked--;
  }
  pthread_mutex_unlock(&mu);
  pthread_cond_destroy(&q->cv);
}

/* The kicking thread looks at the parked queues itself: waking the monitor
 * for it would take a thread switch per host SetEvent or blocking wait,
 * host CPU that a real GPU never takes (on a 2-core machine the monitor
 * then competed with the application for a core, the more so the more
 * events a program sets). The monitor's next timed look is made soon again
 * (kicked: its backoff starts over), as host activity announces work. */
void sim_kick(void) {
  pthread_once(&once, init);
  pthread_mutex_lock(&mu);
  unpark_ready_locked();
  kicked = 1;
  pthread_mutex_unlock(&mu);
}

/* Called by a worker that cannot progress. Returns once ready(q) may hold, or
 * the queue is being destroyed; the caller re-checks either way. */
void sim_park(sim_queue_t *q, sim_ready_fn ready) {
  uint64_t now = sim_now_ns(), hot_until = now + HOT_NS;
  /* SIMGPU_SPIN_US: a doorbell rung within this is seen at once, as a real
   * GPU's command processor sees it, instead of at the next poll: a submit
   * that comes a few microseconds later then costs those microseconds, not
   * a whole poll interval.  Yields the core between looks (a small host
   * runs the program's threads there). */
  for (uint64_t until = now + sim_cfg.spin_ns; sim_cfg.spin_ns && sim_now_ns() < until;) {
    if (q->stop || ready(q)) return;
    sched_yield();
  }
  while (sim_now_ns() < hot_until) {
    sim_sleep_ns(sim_cfg.poll_ns);
    if (q->stop || ready(q)) return;
  }
  pthread_mutex_lock(&mu);
  q->ready = ready;
  if (!q->stop && !ready(q)) {
    q->parked = 1;
    nparked++;
    pthread_cond_signal(&mon_cv);
    while (q->parked) pthread_cond_wait(&q->cv, &mu);
  }
  pthread_mutex_unlock(&mu);
}

/* Destroying a queue wakes its parked worker so it can see ->stop. */
void sim_unpark(sim_queue_t *q) {
  pthread_mutex_lock(&mu);
  if (q->parked) {
    q->parked = 0;
    nparked--;
    pthread_cond_signal(&q->cv);
  }
  pthread_mutex_unlock(&mu);
}
