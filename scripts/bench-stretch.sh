#!/bin/sh
# The GPU timeline's stretch on every way a program waits: traced /
# untraced elapsed time of 20 us kernels on the simulated GPU, one cell per
# way of waiting x layout x signal (tests/progs/tp_wait.c for HSA,
# tp_hip_wait.cpp for HIP), each the median of alternating untraced and
# traced runs (in the order u t t u u t ..., so that neither side always
# comes first), with the 10th and 90th percentiles of both sides.
# Targets per cell: median ratio <= 1.10, traced p90 / untraced p90 <= 1.15;
# and nothing lost (lost, lost_gpu and unfinished of every traced run).
# Usage: scripts/bench-stretch.sh [BUILD_DIR]
#   BENCH_QUICK=1      3 runs of each side per cell (default 11)
#   BENCH_RUNS=N       N runs of each side per cell
#   BENCH_CELLS=REGEX  only the cells whose name matches (grep -E)
#   BENCH_OPS=N        kernels per thread (default 200, quick 100)
#   BENCH_NO_HIP=1     skip the HIP cells (a host without the HIP runtime)
#   BENCH_RUN=CMD      prefix of every program run (a loader, as in
#                      scripts/bench-tracer.sh)
#   SIMGPU_SPIN_US=N   how long an idle simulated queue looks for the next
#                      packet without sleeping (default here 100 on a host
#                      of 8 or more CPUs, else 0, the simulator's default:
#                      a look every SIMGPU_POLL_US)
# The simulated GPU's queue worker, once out of packets, looks for the next
# one every SIMGPU_POLL_US (20 us): a kernel submitted right after the one
# before it completed starts at that look, so a loop that submits and waits
# costs 20 us more per kernel whenever the host's time between a completion
# and the next submit (the program's, and in traced runs the tracer's)
# passes a poll; a few microseconds of tracer work then cost 0 or a whole
# poll, and runs of the same build settle into either.  A real GPU sees a
# doorbell within a microsecond or two: SIMGPU_SPIN_US makes the simulated
# one do the same, so the cells measure the tracer's own time; on a small
# host the looking worker would take a core the program needs, which a real
# GPU never does, so there the simulator polls as usual.
# Exits 1 when a traced run lost a record; a cell over its stretch target
# is marked OVER (the machine may be noisy: the ratios are for reading).
set -e
B=${1:-${B:-build}}
B=$(cd "$B" && pwd)
TOP=$(cd "$(dirname "$0")/.." && pwd)
progs="$B/progs/tp_wait"
[ -n "$BENCH_NO_HIP" ] || progs="$progs $B/progs/tp_hip_wait"
for p in $progs $B/rtg_tracer.so; do
  [ -e "$p" ] || make -C "$TOP" --no-print-directory "B=$B" "$p" >&2
done
export LD_LIBRARY_PATH="$B/simgpu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
spin=0
[ "$(nproc)" -lt 8 ] || spin=100
export SIMGPU_KERNEL_NS=20000 SIMGPU_SPIN_US="${SIMGPU_SPIN_US:-$spin}"
RUN=${BENCH_RUN:-}
T="$B/rtg_tracer.so"
runs=${BENCH_RUNS:-11}
ops=${BENCH_OPS:-200}
if [ -n "$BENCH_QUICK" ]; then
  runs=${BENCH_RUNS:-3}
  ops=${BENCH_OPS:-100}
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
field() { sed -n 's/.* summary //p' rtg_trace.txt.* | tr ' ' '\n' | sed -n "s/^$1://p"; }

# nearest-rank percentile P of the numbers on stdin
pct() { sort -n | awk -v p="$1" '{ v[NR] = $1 } END { k = int(NR * p / 100 + 0.999); if (k < 1) k = 1; print v[k] }'; }

over=0
lost_all=0
echo "stretch: $runs untraced and $runs traced runs per cell, alternating; $ops kernels of 20 us per thread"
printf '%-32s %8s %17s  %8s %17s  %6s %6s %5s\n' cell untraced "p10-p90 ms" traced "p10-p90 ms" median p90 lost
cell() { # name program args...
  name=$1
  shift
  if [ -n "$BENCH_CELLS" ] && ! echo "$name" | grep -Eq "$BENCH_CELLS"; then return 0; fi
  : >u
  : >t
  lost=0
  i=0
  while [ $i -lt "$runs" ]; do
    for side in $([ $((i % 2)) -eq 0 ] && echo u t || echo t u); do
      rm -f rtg_trace.txt.*
      if [ $side = u ]; then
        $RUN "$@" >out || { echo "bench-stretch: $name: untraced run failed" >&2; exit 1; }
      else
        HSA_TOOLS_LIB="$T" $RUN "$@" >out || { echo "bench-stretch: $name: traced run failed" >&2; exit 1; }
        l=$(($(field lost) + $(field lost_gpu) + $(field unfinished)))
        lost=$((lost + l))
      fi
      sed -n 's/^elapsed_ns //p' out >>$side
    done
    i=$((i + 1))
  done
  lost_all=$((lost_all + lost))
  r=$(awk -v um="$(pct 50 <u)" -v u10="$(pct 10 <u)" -v u90="$(pct 90 <u)" \
    -v tm="$(pct 50 <t)" -v t10="$(pct 10 <t)" -v t90="$(pct 90 <t)" -v name="$name" -v lost="$lost" 'BEGIN {
    m = tm / um; p = t90 / u90
    bad = m > 1.10 || p > 1.15 || lost > 0
    printf "%-32s %8.2f %8.2f-%-8.2f  %8.2f %8.2f-%-8.2f  %6.2f %6.2f %5d  %s\n", name, um / 1e6, u10 / 1e6,
      u90 / 1e6, tm / 1e6, t10 / 1e6, t90 / 1e6, m, p, lost, bad ? "OVER" : "ok" }')
  echo "$r"
  case $r in *OVER) over=$((over + 1)) ;; esac
}

for layout in 1t2q 2t 4t1q; do
  for sig in fresh reuse; do
    for wait in scacquire-blocked scacquire-active relaxed-blocked relaxed-active poll any handler b2b; do
      cell "hsa $wait $layout $sig" "$B/progs/tp_wait" $wait $layout $sig "$ops"
    done
  done
done
if [ -z "$BENCH_NO_HIP" ]; then
  for layout in 1t2s 2t 4t1s; do
    for wait in stream event device memcpy query b2b; do
      cell "hip $wait $layout" "$B/progs/tp_hip_wait" $wait $layout "$ops"
    done
  done
fi
echo "targets: median traced/untraced <= 1.10, p90 traced/untraced <= 1.15, lost 0; $over cells OVER; SIMGPU_SPIN_US=$SIMGPU_SPIN_US; $(nproc) CPUs, load average $(cut -d' ' -f1 /proc/loadavg)"
[ "$lost_all" -eq 0 ] || { echo "bench-stretch: $lost_all records lost" >&2; exit 1; }
