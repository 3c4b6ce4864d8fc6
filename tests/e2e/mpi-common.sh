# Sourced by the MPI cases (087-089, 167): skip where Open MPI or the test
# program is missing; mpi_run N PROG ARGS runs N ranks traced on the
# simulated GPU, as root where the case runs as root; mpi_untraced N PROG
# ARGS the same untraced.
command -v mpirun > /dev/null || { echo "SKIP: no mpirun (apt-get install openmpi-bin libopenmpi-dev)"; exit 77; }
[ -x "$B/progs/tpmpi_barrier" ] || { echo "SKIP: tpmpi_barrier not built (no mpicc at build time)"; exit 77; }
. "$TOP/tests/simgpu/env.sh"
export RTG_MPI="${RTG_MPI:-1}"
# Open MPI's memory patcher rewrites mmap and munmap, which the simulated
# GPU's kernel-driver front end (sid, experimental) serves: its processes
# die of SIGBUS in ROCR's init, traced or not
export OMPI_MCA_memory=^patcher
# the variables the simulated GPU set (LD_LIBRARY_PATH: the thunk front end)
mpi_env="-x OMPI_MCA_memory -x LD_PRELOAD"
[ -n "${LD_LIBRARY_PATH:-}" ] && mpi_env="$mpi_env -x LD_LIBRARY_PATH"
mpi_run() {
  n=$1
  shift
  # yield when idle: 8 ranks spin on 2 cores otherwise
  # shellcheck disable=SC2086
  timeout 300 mpirun --allow-run-as-root --oversubscribe -np "$n" --mca mpi_yield_when_idle 1 \
    -x HSA_TOOLS_LIB="$B/rtg_tracer.so" -x RTG_MPI $mpi_env "$@"
}
mpi_untraced() {
  n=$1
  shift
  # shellcheck disable=SC2086
  (unset HSA_TOOLS_LIB; timeout 300 mpirun --allow-run-as-root --oversubscribe -np "$n" \
    --mca mpi_yield_when_idle 1 $mpi_env "$@")
}
