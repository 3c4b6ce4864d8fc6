/* tpmpi_barrier N [SLOW_RANK SLEEP_US]: an MPI program on the simulated GPU.
 * N rounds of: MPI_Barrier, then one kernel dispatched right after it (and
 * waited for), then an MPI_Allreduce of one int; rank SLOW_RANK sleeps
 * SLEEP_US microseconds before each barrier (a straggler).  Also one
 * MPI_Isend/MPI_Irecv pair per round between neighbours, completed by
 * MPI_Waitall, and an MPI_Bcast.  Prints "rank R sum S": the allreduce's
 * last result, the same untraced and traced. */
#include <mpi.h>
#include <time.h>

#include "tp_common.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int n = argc > 1 ? atoi(argv[1]) : 10;
  int slow = argc > 2 ? atoi(argv[2]) : -1;
  long sleep_us = argc > 3 ? atol(argv[3]) : 0;
  sg_system_t sys;
  sg_init(&sys);
  hsa_queue_t *q = tp_queue(&sys);
  hsa_signal_t s;
  CHECK(hsa_signal_create(1, 0, NULL, &s));
  int sum = 0;
  for (int i = 0; i < n; i++) {
    if (rank == slow) {
      struct timespec ts = {sleep_us / 1000000, (sleep_us % 1000000) * 1000};
      nanosleep(&ts, NULL);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    hsa_signal_store_relaxed(s, 1);
    tp_dispatch_n(q, s, 1);
    int one = rank + i;
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    int out = rank, in = -1;
    MPI_Request rq[2];
    MPI_Isend(&out, 1, MPI_INT, (rank + 1) % size, 7, MPI_COMM_WORLD, &rq[0]);
    MPI_Irecv(&in, 1, MPI_INT, (rank + size - 1) % size, 7, MPI_COMM_WORLD, &rq[1]);
    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    MPI_Bcast(&in, 1, MPI_INT, 0, MPI_COMM_WORLD);
  }
  printf("rank %d sum %d\n", rank, sum);
  CHECK(hsa_signal_destroy(s));
  CHECK(hsa_queue_destroy(q));
  CHECK(hsa_shut_down());
  MPI_Finalize();
  return 0;
}
