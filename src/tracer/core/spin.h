/* A lock for the short critical sections that an application thread and
 * the tracer's own threads share on every GPU op: the op pool, the table
 * entry of the op's signal, a queue's list of ops in flight.
 *
 * A pthread mutex found held puts the thread to sleep in the kernel (a
 * futex wait) and the holder's unlock wakes it with a system call; the
 * sleeper runs again only once the scheduler brings it back, microseconds
 * later on an idle many-core host (its CPU left for a deeper idle state).
 * An application thread that meets a tracer thread there (a waiter
 * completing a burst of ops, the runtime's async-events thread completing
 * a marker) loses that time between a kernel's end and its next submit:
 * rarely, but a whole wake-up each time.  These sections hold a few dozen
 * instructions (at most a signal's decrement through the runtime) and wait
 * for nothing, so a thread that finds the lock held spins for it instead;
 * a holder that does not run (preempted on a busy machine) is yielded to
 * after RTG_SPINS looks. */
#ifndef RTG_SPIN_H
#define RTG_SPIN_H

#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>

typedef struct rtg_spin {
  _Atomic uint32_t held;
} rtg_spin;

enum { RTG_SPINS = 128 };

static inline void rtg_spin_init(rtg_spin *l) {
  atomic_store_explicit(&l->held, 0, memory_order_relaxed);
}

static inline void rtg_spin_lock(rtg_spin *l) {
  while (atomic_exchange_explicit(&l->held, 1, memory_order_acquire)) {
    /* wait with plain loads: the line stays shared until the unlock */
    for (unsigned i = 0; atomic_load_explicit(&l->held, memory_order_relaxed); i++) {
      if (i < RTG_SPINS) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
      } else {
        sched_yield();
      }
    }
  }
}

static inline void rtg_spin_unlock(rtg_spin *l) {
  atomic_store_explicit(&l->held, 0, memory_order_release);
}

#endif
