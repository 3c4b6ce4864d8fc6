/* The MPI wing's parts: the library's own functions the wrappers call
 * (mpi_lib.c), communicators as every rank names them (mpi_comm.c), and
 * the record of one call (mpi_record.c).
 *
 * No MPI header and no link to MPI: a handle (communicator, datatype,
 * request, group, op) is passed as the register it arrives in, a pointer
 * in Open MPI and an int in MPICH, both in one integer register on the
 * 64-bit ABIs; only its low 32 bits count for an MPICH handle. */
#ifndef RTG_MPI_INTERNAL_H
#define RTG_MPI_INTERNAL_H

#include "core/tracer.h"

#include <stdbool.h>
#include <stdint.h>

typedef void *mpi_h;

/* The library's functions the wrappers use besides the wrapped one. */
typedef struct rtg_mpi_lib {
  int (*comm_size)(mpi_h, int *);
  int (*comm_rank)(mpi_h, int *);
  int (*comm_group)(mpi_h, mpi_h *);
  int (*group_translate_ranks)(mpi_h, int, const int *, mpi_h, int *);
  int (*group_free)(mpi_h *);
  int (*type_size)(mpi_h, int *);
  mpi_h world;      /* MPI_COMM_WORLD */
  bool int_handles; /* MPICH: handles are ints */
} rtg_mpi_lib;
RTG_HIDDEN extern rtg_mpi_lib rtg_mpi;
RTG_HIDDEN extern int rtg_mpi_on; /* the wrappers record (between init and fini) */

/* The wrapped functions (mpi_calls.c): name, wrapper, and where the
 * library's own function goes (set before any slot points at wrapper). */
typedef struct rtg_mpi_wrap {
  const char *name;
  void *wrapper;
  void **real;
} rtg_mpi_wrap;
RTG_HIDDEN extern const rtg_mpi_wrap rtg_mpi_wraps[];
RTG_HIDDEN extern const int rtg_mpi_nwraps;

/* A communicator as the records name it. */
typedef struct rtg_mpi_comm {
  uintptr_t handle;
  uint32_t size, rank;
  int32_t leader;       /* -1: unknown */
  char id[32];          /* LEADER.SIZE.K, see record.h's RTG_FIELDS_MPI */
  _Atomic uint64_t seq; /* collectives started on it */
} rtg_mpi_comm;

/* comm's entry, made at its first use; NULL when the table is full or MPI
 * cannot tell its size (a freed or null communicator). */
RTG_HIDDEN rtg_mpi_comm *rtg_mpi_comm_of(mpi_h comm);

/* One call being recorded. */
typedef struct rtg_mpi_call {
  const char *func;
  uint64_t start; /* stamp */
  const rtg_mpi_comm *comm;
  int32_t peer, root;
  uint64_t bytes, seq, req, nreq;
  uint8_t has_peer, has_root, has_bytes, has_req, has_nreq, has_done, done;
} rtg_mpi_call;

/* The call's start (its stamp last), on communicator comm (NULL: none). */
RTG_HIDDEN void rtg_mpi_begin(rtg_mpi_call *c, const char *func, mpi_h comm);
/* The same for a collective: its number on comm too. */
RTG_HIDDEN void rtg_mpi_begin_coll(rtg_mpi_call *c, const char *func, mpi_h comm);
/* count elements of datatype dt. */
RTG_HIDDEN void rtg_mpi_bytes(rtg_mpi_call *c, int count, mpi_h dt);
/* Its end: the record, with MPI's return code. */
RTG_HIDDEN void rtg_mpi_end(rtg_mpi_call *c, int ret);

#endif
