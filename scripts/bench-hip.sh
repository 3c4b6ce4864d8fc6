#!/bin/sh
# The tracer's own added host cost per HIP call, as a ratio to two
# CLOCK_BOOTTIME reads measured in the same process, away from any GPU:
# tests/abi/hip_bench_fake.c runs the real rtg_tracer.so over the stand-in
# HIP libraries (a HIP 5.2.3 call on simgpu costs ~21 us by itself, which
# buried the tracer in noise).  Per run and repetition it times, side by
# side: the call as HIP makes it with no tool, the same call traced, a call
# filtered out by RTG_HIP_API_FILTER_OUT, and two clock reads.  The added
# cost is the median over repetitions and runs of traced - untraced (the
# minimum is printed too); a ratio uses the median clock pair of that run.
#   scripts/bench-hip.sh [CALLS [REPS [RUNS]]]   (B=build dir; `make bench`)
# BENCH_HIP_SIMGPU=1 also times hipGetLastError of the real HIP 5.2.3 on
# simgpu (callback-5.2 path), best of 5.
B=${B:-build}
TOP=$(cd "$(dirname "$0")/.." && pwd)
cd "$TOP" || exit 1
n=${1:-50000} reps=${2:-7} runs=${3:-3}
make --no-print-directory -s "$B/abi/hip_bench_fake" "$B/rtg_tracer.so" "$B/rtg_register.so" \
  "$B/abi/libamdhip64.so.6" "$B/abi/hip62/libamdhip64.so.6" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# bench LABEL MODE LIB [VAR=VALUE...]: one summary line per path
bench() {
  label=$1 mode=$2 lib=$3
  shift 3
  : >"$tmp/all"
  lost=0
  i=0
  while [ $i -lt "$runs" ]; do
    (cd "$tmp" && rm -f rtg_trace.txt.* &&
      env "$@" "$TOP/$B/abi/hip_bench_fake" "$mode" "$n" "$reps" "$TOP/$B/rtg_tracer.so" \
        "$TOP/$B/rtg_register.so" "$TOP/$B/abi/$lib" 2>/dev/null >>all &&
      sed -n 's/.* summary .* lost:\([0-9]*\).*/\1/p' rtg_trace.txt.* >>lost)
    i=$((i + 1))
  done
  lost=$(awk '{s += $1} END {print s + 0}' "$tmp/lost" 2>/dev/null)
  rm -f "$tmp/lost"
  awk -v label="$label" -v lost="$lost" -v total=$((n * reps * runs)) '
    function median(a, k,   i, j, t) {
      for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
      return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
    }
    { k++; base[k] = $1; add[k] = $2 - $1; filt[k] = $3 - $1; clk[k] = $4
      if (k == 1 || $2 - $1 < amin) amin = $2 - $1 }
    END {
      b = median(base, k); a = median(add, k); f = median(filt, k); c = median(clk, k)
      printf "hip: %s: untraced call %.1f ns, two CLOCK_BOOTTIME reads %.1f ns (medians of %d)\n", label, b, c, k
      printf "hip: %s: added cost of a traced HIP call: %.0f ns = %.1f x two clock reads (min %.0f ns)\n", label, a, a / c, amin
      printf "hip: %s: added cost of a filtered-out call: %.0f ns = %.2f x two clock reads\n", label, f, f / c
      if (lost > 0) printf "hip: %s: %d of %d records lost (buffers full): those calls cost less\n", label, lost, total
    }' "$tmp/all"
}

bench "dispatch-table (6.2+)" table hip62/libamdhip64.so.6
bench "dispatch-table, RTG_HIP_API_ARGS=1" table hip62/libamdhip64.so.6 RTG_HIP_API_ARGS=1
bench "tracer-callback (5.3.1+)" callback libamdhip64.so.6
bench "tracer-callback, RTG_HIP_API_ARGS=1" callback libamdhip64.so.6 RTG_HIP_API_ARGS=1

[ "${BENCH_HIP_SIMGPU:-0}" = 1 ] || exit 0
# The real HIP 5.2.3 on simgpu (its own ~21 us per call dominates).
make --no-print-directory -s "$B/abi/hip_bench" "$B/simgpu/libhsakmt.so.1" || exit 1
SIMGPU="$B/simgpu"
. tests/simgpu/env.sh
run() { (cd "$tmp" && env "$@" "$TOP/$B/abi/hip_bench" 20000); }
set -- $(run RTG_UNUSED=1);                         base=$1 clk=$2
set -- $(run HSA_TOOLS_LIB="$TOP/$B/rtg_tracer.so"); traced=$1
awk -v b="$base" -v t="$traced" -v c="$clk" 'BEGIN {
  printf "hip: simgpu HIP 5.2.3 hipGetLastError untraced %.1f ns, traced %.1f ns: added %.0f ns = %.1f x two clock reads\n", b, t, t - b, (t - b) / c
}'
