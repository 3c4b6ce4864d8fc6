# Sourced by the MPI cases (087-089): skip where Open MPI or the test
# program is missing; mpi_run N PROG ARGS runs N ranks traced on the
# simulated GPU, as root where the case runs as root.
command -v mpirun > /dev/null || { echo "SKIP: no mpirun (apt-get install openmpi-bin libopenmpi-dev)"; exit 77; }
[ -x "$B/progs/tpmpi_barrier" ] || { echo "SKIP: tpmpi_barrier not built (no mpicc at build time)"; exit 77; }
. "$TOP/tests/simgpu/env.sh"
export RTG_MPI="${RTG_MPI:-1}"
mpi_run() {
  n=$1
  shift
  # yield when idle: 8 ranks spin on 2 cores otherwise
  timeout 300 mpirun --allow-run-as-root --oversubscribe -np "$n" --mca mpi_yield_when_idle 1 \
    -x HSA_TOOLS_LIB="$B/rtg_tracer.so" -x LD_PRELOAD -x LD_LIBRARY_PATH \
    -x RTG_MPI "$@"
}
