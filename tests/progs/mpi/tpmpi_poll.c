/* tpmpi_poll: a program polling requests, for the tracer's coalescing of
 * repeated MPI tests (e2e 091): 2 ranks; rank 1 sleeps 30 ms and sends an
 * int to rank 0, which polls its MPI_Irecv with MPI_Test; then rank 0
 * sleeps 30 ms and sends to rank 1, which polls with MPI_Testall.  HSA is
 * started (the tracer starts with it) but no kernel runs.  Prints "rank R
 * got V": the same untraced and traced. */
#include <mpi.h>
#include <time.h>

#include "tp_common.h"

static void nap(void) {
  struct timespec ts = {0, 30 * 1000000};
  nanosleep(&ts, NULL);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  sg_system_t sys;
  sg_init(&sys);
  int got = -1, out = 40 + rank, done = 0;
  MPI_Request rq;
  if (rank == 0) {
    MPI_Irecv(&got, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, &rq);
    while (!done) MPI_Test(&rq, &done, MPI_STATUS_IGNORE);
    nap();
    MPI_Send(&out, 1, MPI_INT, 1, 6, MPI_COMM_WORLD);
  } else if (rank == 1) {
    nap();
    MPI_Send(&out, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
    MPI_Irecv(&got, 1, MPI_INT, 0, 6, MPI_COMM_WORLD, &rq);
    while (!done) MPI_Testall(1, &rq, &done, MPI_STATUSES_IGNORE);
  }
  printf("rank %d got %d\n", rank, got);
  CHECK(hsa_shut_down());
  MPI_Finalize();
  return 0;
}
