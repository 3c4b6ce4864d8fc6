#!/bin/sh
# Tracer cost, measured side by side in one run on the simulated GPU:
#  (a) added cost of a traced HSA API call (hsa_signal_load_relaxed with
#      RTG_HSA_API_FILTER=all) as a ratio to two CLOCK_BOOTTIME reads
#      (target <= 2.0);
#  (b) added host cost of submitting one kernel dispatch through an
#      intercepted queue (target <= 1 us), and dispatch throughput traced
#      vs untraced (the simulated GPU's poll latency dominates the latter).
# Usage: scripts/bench-tracer.sh [BUILD_DIR]   (after `make` and
#        `make build/progs/tp_bench`)
set -e
B=${1:-${B:-build}}
B=$(cd "$B" && pwd)
TOP=$(cd "$(dirname "$0")/.." && pwd)
[ -x "$B/progs/tp_bench" ] || make -C "$TOP" --no-print-directory "B=$B" "$B/progs/tp_bench" >&2
export LD_LIBRARY_PATH="$B/simgpu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export SIMGPU_KERNEL_NS=${SIMGPU_KERNEL_NS:-1000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
bench=$B/progs/tp_bench
get() { sed -n "s/^$1 //p" "$2"; }

"$bench" api 200000 >api.plain
# a buffer big enough that no record is lost (the lost path is cheaper)
RTG_BUFFER_KB=262144 RTG_HSA_API_FILTER=all HSA_TOOLS_LIB="$B/rtg_tracer.so" "$bench" api 200000 >api.traced
plain=$(get api_ns api.plain)
traced=$(get api_ns api.traced)
clock=$(get clock_pair_ns api.plain)
awk -v p="$plain" -v t="$traced" -v c="$clock" 'BEGIN {
  printf "hsa api call: untraced %.1f ns, traced %.1f ns, two CLOCK_BOOTTIME reads %.1f ns\n", p, t, c
  printf "(a) added cost / two clock reads = %.2f (target <= 2.0)\n", (t - p) / c }'

"$bench" dispatch 20480 >d.plain
HSA_TOOLS_LIB="$B/rtg_tracer.so" "$bench" dispatch 20480 >d.traced
awk -v ps="$(get submit_ns d.plain)" -v ts="$(get submit_ns d.traced)" \
    -v pr="$(get dispatch_per_s d.plain)" -v tr="$(get dispatch_per_s d.traced)" 'BEGIN {
  printf "dispatch submit: untraced %.0f ns, traced %.0f ns\n", ps, ts
  printf "(b) added host cost per dispatch = %.2f us (target <= 1 us)\n", (ts - ps) / 1000
  printf "    throughput: untraced %.0f/s, traced %.0f/s, ratio %.2f\n", pr, tr, tr / pr }'
rm -f rtg_trace.txt.*
