/* Communicators as every rank names them.  A handle means nothing in
 * another process, so a communicator is named by what all its ranks can
 * tell alike: the world rank of its rank 0 (the leader), its size, and
 * how many communicators of that leader and size this process used before
 * it (in the order of first use, which ranks share when they use their
 * communicators in the same order, as collectives make them).  Each entry
 * also counts the collectives started on it: the n-th collective on a
 * communicator is the same instance on every rank (MPI requires every
 * rank to call a communicator's collectives in the same order). */
#include "core/fmt.h"
#include "mpi_internal.h"

#include <pthread.h>
#include <string.h>

enum { COMMS_MAX = 1024 };
static rtg_mpi_comm comms[COMMS_MAX];
static int ncomms; /* entries before it are whole (release/acquire) */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static uintptr_t key(mpi_h comm) {
  uintptr_t k = (uintptr_t)comm;
  return rtg_mpi.int_handles ? (uint32_t)k : k;
}

static rtg_mpi_comm *find(uintptr_t k, int n) {
  for (int i = 0; i < n; i++)
    if (comms[i].handle == k) return &comms[i];
  return NULL;
}

/* The world rank of comm's rank 0, or -1. */
static int leader_of(mpi_h comm) {
  if (key(comm) == key(rtg_mpi.world)) return 0;
  if (!rtg_mpi.comm_group || !rtg_mpi.group_translate_ranks || !rtg_mpi.group_free) return -1;
  mpi_h g = 0, w = 0;
  int zero = 0, out = -1;
  if (rtg_mpi.comm_group(comm, &g)) return -1;
  if (!rtg_mpi.comm_group(rtg_mpi.world, &w)) {
    if (rtg_mpi.group_translate_ranks(g, 1, &zero, w, &out)) out = -1;
    rtg_mpi.group_free(&w);
  }
  rtg_mpi.group_free(&g);
  return out;
}

rtg_mpi_comm *rtg_mpi_comm_of(mpi_h comm) {
  uintptr_t k = key(comm);
  rtg_mpi_comm *c = find(k, __atomic_load_n(&ncomms, __ATOMIC_ACQUIRE));
  if (c) return c;
  int size = 0, rank = 0;
  if (!rtg_mpi.comm_size || !rtg_mpi.comm_rank || rtg_mpi.comm_size(comm, &size) || size <= 0 ||
      rtg_mpi.comm_rank(comm, &rank))
    return NULL;
  int leader = leader_of(comm);
  pthread_mutex_lock(&mu);
  c = find(k, ncomms);
  if (!c && ncomms < COMMS_MAX) {
    unsigned same = 0;
    for (int i = 0; i < ncomms; i++) {
      const rtg_mpi_comm *o = &comms[i];
      same += o->size == (uint32_t)size && o->leader == leader;
    }
    c = &comms[ncomms];
    c->handle = k;
    c->size = (uint32_t)size;
    c->rank = (uint32_t)rank;
    c->leader = leader;
    char *p = c->id, *end = c->id + sizeof c->id - 1;
    if (leader < 0) {
      *p++ = '?';
    } else {
      p = rtg_fmt_u64(p, end, (uint64_t)leader);
    }
    *p++ = '.';
    p = rtg_fmt_u64(p, end, (uint64_t)size);
    *p++ = '.';
    p = rtg_fmt_u64(p, end, same);
    *p = 0;
    atomic_store_explicit(&c->seq, 0, memory_order_relaxed);
    __atomic_store_n(&ncomms, ncomms + 1, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&mu);
  return c;
}
