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
 * for nothing, so a thread that finds the lock held first spins for it
 * (RTG_SPINS looks, a few microseconds): a collision between two running
 * threads ends there.  Only then does it sleep in the kernel: a holder
 * that does not run (preempted on a busy machine) is not waited for with
 * a CPU that it, or the simulated GPU, may need.  A futex word: 0 free,
 * 1 held, 2 held with a sleeper to wake at the unlock (DESIGN.md, "Locks an
 * op shares"). */
#ifndef RTG_SPIN_H
#define RTG_SPIN_H

#include <errno.h>
#include <linux/futex.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

typedef struct rtg_spin {
  _Atomic uint32_t held;
} rtg_spin;

enum { RTG_SPINS = 128 };

static inline void rtg_spin_init(rtg_spin *l) {
  atomic_store_explicit(&l->held, 0, memory_order_relaxed);
}

static inline bool rtg_spin_try(rtg_spin *l) {
  uint32_t free_ = 0;
  return atomic_compare_exchange_strong_explicit(&l->held, &free_, 1, memory_order_acquire,
                                                 memory_order_relaxed);
}

static inline void rtg_spin_lock(rtg_spin *l) {
  if (rtg_spin_try(l)) return;
  for (unsigned i = 0; i < RTG_SPINS; i++) {
    /* plain loads while held: the line stays shared until the unlock */
    if (!atomic_load_explicit(&l->held, memory_order_relaxed) && rtg_spin_try(l)) return;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }
  /* held with a sleeper from now on: the unlock wakes one; the system
   * call's errno (EAGAIN, EINTR) is not the application's to see */
  int saved = errno;
  while (atomic_exchange_explicit(&l->held, 2, memory_order_acquire))
    syscall(SYS_futex, &l->held, FUTEX_WAIT_PRIVATE, 2, NULL, NULL, 0);
  errno = saved;
}

static inline void rtg_spin_unlock(rtg_spin *l) {
  if (atomic_exchange_explicit(&l->held, 0, memory_order_release) == 2) {
    int saved = errno;
    syscall(SYS_futex, &l->held, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
    errno = saved;
  }
}

#endif
