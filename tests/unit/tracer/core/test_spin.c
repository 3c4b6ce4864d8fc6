/* The spin lock of the GPU op's shared sections (core/spin.h) on its own:
 * threads that increment a plain counter under it never lose an update,
 * and a thread that finds it held by a holder that does not run (asleep
 * for 20 ms: past its spinning, the other thread sleeps too) gets it once
 * that holder lets go, not before, and the lock is free after. */
#define _GNU_SOURCE
#include "check.h"
#include "core/spin.h"

#include <pthread.h>
#include <time.h>

enum { THREADS = 4, ROUNDS = 200000 };

static rtg_spin lock;
static uint64_t counter; /* only under the lock */

static void *add(void *arg) {
  (void)arg;
  for (int i = 0; i < ROUNDS; i++) {
    rtg_spin_lock(&lock);
    counter++;
    rtg_spin_unlock(&lock);
  }
  return NULL;
}

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static _Atomic uint64_t released_at, taken_at;

static void *take(void *arg) {
  (void)arg;
  rtg_spin_lock(&lock);
  taken_at = now_ns();
  rtg_spin_unlock(&lock);
  return NULL;
}

int main(void) {
  pthread_t t[THREADS];
  for (int i = 0; i < THREADS; i++) pthread_create(&t[i], NULL, add, NULL);
  for (int i = 0; i < THREADS; i++) pthread_join(t[i], NULL);
  CHECK_U64(counter, (uint64_t)THREADS * ROUNDS);
  CHECK_U64(atomic_load(&lock.held), 0);

  /* held across a sleep of 20 ms: the other thread waits it out */
  rtg_spin_lock(&lock);
  pthread_t other;
  pthread_create(&other, NULL, take, NULL);
  struct timespec ts = {0, 20000000};
  nanosleep(&ts, NULL);
  CHECK_U64(atomic_load(&taken_at), 0);
  released_at = now_ns();
  rtg_spin_unlock(&lock);
  pthread_join(other, NULL);
  CHECK(atomic_load(&taken_at) >= atomic_load(&released_at));
  CHECK_U64(atomic_load(&lock.held), 0);
  return check_done("test_spin");
}
