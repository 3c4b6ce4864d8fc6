#!/bin/sh
# Added host cost of a traced HIP call (the ROCm 5.2.3 callback path, for
# real on simgpu), as a ratio to the cost of two CLOCK_BOOTTIME reads
# measured in the same process.  hipGetLastError in a tight loop, best of 5.
#   scripts/bench-hip.sh [CALLS]     (B=build dir; run by `make bench`)
B=${B:-build}
TOP=$(cd "$(dirname "$0")/.." && pwd)
cd "$TOP" || exit 1
make --no-print-directory -s "$B/abi/hip_bench" "$B/rtg_tracer.so" "$B/simgpu/libhsakmt.so.1" || exit 1
SIMGPU="$B/simgpu"
. tests/simgpu/env.sh
n=${1:-200000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() { (cd "$tmp" && env "$@" "$TOP/$B/abi/hip_bench" "$n"); }
set -- $(run RTG_UNUSED=1);                         base=$1 clk=$2
set -- $(run HSA_TOOLS_LIB="$TOP/$B/rtg_tracer.so"); traced=$1
set -- $(run HSA_TOOLS_LIB="$TOP/$B/rtg_tracer.so" RTG_HIP_API_FILTER=hipMalloc); filtered=$1
set -- $(run HSA_TOOLS_LIB="$TOP/$B/rtg_tracer.so" RTG_HIP_API_ARGS=1); args=$1
awk -v b="$base" -v t="$traced" -v f="$filtered" -v a="$args" -v c="$clk" 'BEGIN {
  printf "hip: hipGetLastError untraced %.1f ns, traced %.1f ns, two CLOCK_BOOTTIME reads %.1f ns\n", b, t, c
  printf "hip: added cost of a traced HIP call: %.1f ns = %.2f x two clock reads\n", t - b, (t - b) / c
  printf "hip: with RTG_HIP_API_ARGS=1: %.1f ns = %.2f x; a call filtered out: %.1f ns = %.2f x\n", a - b, (a - b) / c, f - b, (f - b) / c
}'
