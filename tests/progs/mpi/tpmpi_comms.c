/* tpmpi_comms: MPI calls beyond the world communicator, for the tracer's
 * records (e2e 167): the world split in two halves (even and odd ranks),
 * an MPI_Allreduce on each half and a MPI_Bcast on a duplicate of it, an
 * MPI_Allgather with MPI_IN_PLACE, an MPI_Sendrecv between neighbours,
 * an MPI_Ibarrier completed by MPI_Wait, and an MPI_Iallreduce polled
 * with MPI_Test.  HSA is started (the tracer starts with it) but no
 * kernel runs.  Prints "rank R half H sum S all A": the same untraced and
 * traced. */
#include <mpi.h>

#include "tp_common.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  sg_system_t sys;
  sg_init(&sys);
  MPI_Comm half, dup;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  MPI_Comm_dup(half, &dup);
  int one = rank, sum = 0;
  MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, half);
  MPI_Bcast(&sum, 1, MPI_INT, 0, dup);
  int *all = calloc((size_t)size, sizeof *all);
  all[rank] = rank * 10;
  MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, 1, MPI_INT, MPI_COMM_WORLD);
  double out[4] = {rank, 0, 0, 0}, in[4];
  MPI_Sendrecv(out, 4, MPI_DOUBLE, (rank + 1) % size, 1, in, 4, MPI_DOUBLE,
               (rank + size - 1) % size, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Request rq;
  MPI_Ibarrier(MPI_COMM_WORLD, &rq);
  MPI_Wait(&rq, MPI_STATUS_IGNORE);
  long l = rank, ls = 0;
  MPI_Iallreduce(&l, &ls, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD, &rq);
  int done = 0;
  while (!done) MPI_Test(&rq, &done, MPI_STATUS_IGNORE);
  int a = 0;
  for (int i = 0; i < size; i++) a += all[i];
  printf("rank %d half %d sum %d all %d lsum %ld\n", rank, rank % 2, sum, a, ls);
  free(all);
  MPI_Comm_free(&dup);
  MPI_Comm_free(&half);
  CHECK(hsa_shut_down());
  MPI_Finalize();
  return 0;
}
