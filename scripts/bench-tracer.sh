#!/bin/sh
# What the tracer costs the application, measured side by side in one run
# on the simulated GPU, with default settings (nothing may be lost):
#  (a) a traced HSA call at the highest rate (hsa_signal_load_relaxed,
#      RTG_HSA_API_FILTER=all), a record a call (RTG_HSA_POLL=each): added
#      cost / two CLOCK_BOOTTIME reads; then with the default settings, where
#      those calls repeat each other and are coalesced into one record, and
#      where they alternate between two signals (none coalesced: each call
#      held back, then written);
#  (b) the same with ~300 ns of the application's own work between calls
#      (a record a call, as (d) and (e));
#  (c) a traced HIP call (hipGetDevice on the real HIP runtime): the total
#      added cost with default settings (on HIP <= 5.3 the GOT after the
#      hand-over), and with HIP's callbacks kept (RTG_HIP_PATH=callback):
#      HIP's own cost of calling an empty tool callback (same program),
#      and rtg's share above that floor;
#  (d) the writer alone: records per second of the writer thread's CPU time
#      (median of 3 runs);
#  (e) 20 M traced calls: peak RSS and slowdown, every record written;
#  (f) the GPU timeline's stretch, traced / untraced elapsed (median of 5
#      alternating runs): 20 us kernels on two queues (HSA) or streams
#      (HIP), back to back and waiting for each one, and (HSA) each
#      followed by a barrier on the other queue that depends on it;
#  (g) host cost of submitting a kernel dispatch.
# Usage: scripts/bench-tracer.sh [BUILD_DIR]
#   BENCH_QUICK=1   smaller counts (no 20 M run)
#   BENCH_NO_HIP=1  skip the HIP lines (a host without the HIP runtime)
#   BENCH_RUN=CMD   prefix of every program run (a loader, for a host whose
#                   libraries are carried: "lib/ld-linux-x86-64.so.2
#                   --library-path $B/simgpu:lib")
set -e
B=${1:-${B:-build}}
B=$(cd "$B" && pwd)
TOP=$(cd "$(dirname "$0")/.." && pwd)
progs="$B/progs/tp_bench $B/progs/tp_stretch"
[ -n "$BENCH_NO_HIP" ] || progs="$progs $B/progs/tp_hip_bench"
for p in $progs; do
  [ -x "$p" ] || make -C "$TOP" --no-print-directory "B=$B" "$p" >&2
done
export LD_LIBRARY_PATH="$B/simgpu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
RUN=${BENCH_RUN:-}
T="$B/rtg_tracer.so"
quick=${BENCH_QUICK:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
get() { sed -n "s/^$1 //p" "$2"; }
summary() { sed -n 's/.* summary //p' rtg_trace.txt.*; }
field() { summary | tr ' ' '\n' | sed -n "s/^$1://p"; }
lines() { grep -c "^$1" rtg_trace.txt.* || true; }

# ---- (a) (d) max rate
n=280000 # x 5 repetitions
[ -z "$quick" ] || n=50000
rm -f rtg_trace.txt.*
$RUN "$B/progs/tp_bench" api $n >a.plain
RTG_VERBOSE=1 RTG_HSA_POLL=each RTG_HSA_API_FILTER=all HSA_TOOLS_LIB="$T" $RUN "$B/progs/tp_bench" api $n \
  >a.traced 2>a.err
recs=$(lines "HSA: .* hsa_signal_load_relaxed ")
# the clock pair: the faster of the two runs' (each the best of 5)
cpair() { awk -v a="$(get clock_pair_ns "$1")" -v b="$(get clock_pair_ns "$2")" 'BEGIN { print (a < b ? a : b) }'; }
awk -v p="$(get api_ns a.plain)" -v t="$(get api_ns a.traced)" -v c="$(cpair a.plain a.traced)" \
  -v recs="$recs" -v want=$((5 * n)) -v lost="$(field lost)" -v waits="$(field buffer_waits)" 'BEGIN {
  printf "(a) traced HSA call, max rate, a record a call (RTG_HSA_POLL=each): untraced %.1f ns, traced %.1f ns, two clock reads %.1f ns: added / clock pair = %.2f (target <= 2.0); records %d of %d, lost %d, buffer waits %d\n",
    p, t, c, (t - p) / c, recs, want, lost, waits }'
# the calls the records of a function stand for (polls:N, else 1)
polls() { grep "^HSA: .* $1 " rtg_trace.txt.* | awk '{ n = 1; for (i = 6; i <= NF; i++) if ($i ~ /^polls:/) n = substr($i, 7); s += n } END { print s + 0 }'; }
# the same calls with the default settings: coalesced
rm -f rtg_trace.txt.*
RTG_HSA_API_FILTER=all HSA_TOOLS_LIB="$T" $RUN "$B/progs/tp_bench" api $n >a2.traced
awk -v p="$(get api_ns a.plain)" -v t="$(get api_ns a2.traced)" -v c="$(cpair a.plain a2.traced)" \
  -v recs="$(lines "HSA: .* hsa_signal_load_relaxed ")" -v calls="$(polls hsa_signal_load_relaxed)" \
  -v want=$((5 * n)) -v lost="$(field lost)" 'BEGIN {
  printf "    the same calls coalesced (default): traced %.1f ns: added / clock pair = %.2f; records %d for %d calls of %d, lost %d\n",
    t, (t - p) / c, recs, calls, want, lost }'
# alternating between two signals: no call coalesced, each held back first
rm -f rtg_trace.txt.*
$RUN "$B/progs/tp_bench" alt $n >a3.plain
RTG_HSA_API_FILTER=all HSA_TOOLS_LIB="$T" $RUN "$B/progs/tp_bench" alt $n >a3.traced
awk -v p="$(get api_ns a3.plain)" -v t="$(get api_ns a3.traced)" -v c="$(cpair a3.plain a3.traced)" \
  -v recs="$(lines "HSA: .* hsa_signal_load_relaxed ")" -v calls="$(polls hsa_signal_load_relaxed)" \
  -v want=$((5 * n)) -v lost="$(field lost)" 'BEGIN {
  printf "    calls alternating between two signals (default, none coalesced): untraced %.1f ns, traced %.1f ns: added / clock pair = %.2f; records %d for %d calls of %d, lost %d\n",
    p, t, (t - p) / c, recs, calls, want, lost }'
# (d): the same on one core (taskset), so the writer runs when the producer
# does not: its records per second of its own CPU time are its speed alone
# (in (a) it also pays for reading what another core just wrote)
writer_line() { # label file
  sed -n 's/^rtg: writer: \([0-9]*\) records in \([0-9.]*\) s.*(\([0-9.]*\) M records\/s).*peaked at \([0-9]*\) MB/\1 \2 \3 \4/p' "$2" |
    awk -v l="$1" '{ printf "%s %d records in %.3f s of its CPU time: %.2f M records/s (target >= 5); buffers peaked at %d MB\n", l, $1, $2, $3, $4 }'
}
# Three runs, the median printed (the writer's speed depends on how far it
# falls behind, so single runs on a shared host scatter by 30 %)
if command -v taskset >/dev/null; then
  : >d.all
  for i in 1 2 3; do
    rm -f rtg_trace.txt.*
    RTG_VERBOSE=1 RTG_HSA_POLL=each RTG_HSA_API_FILTER=all HSA_TOOLS_LIB="$T" taskset -c 0 $RUN "$B/progs/tp_bench" api $n \
      >d.traced 2>d.err$i
    sed -n 's/^rtg: writer: .*(\([0-9.]*\) M records\/s).*/\1 '"$i"'/p' d.err$i >>d.all
  done
  mid=$(sort -n d.all | sed -n '2s/.* //p')
  writer_line "(d) writer alone (one core), median of 3:" "d.err$mid"
  echo "    the three runs: $(sort -n d.all | awk '{ printf "%s%.2f", (NR > 1 ? ", " : ""), $1 }') M records/s"
fi
writer_line "    writer beside the producer (a):" a.err

# ---- (b) paced
rm -f rtg_trace.txt.*
$RUN "$B/progs/tp_bench" paced $n >b.plain
# the same work in both (calibrated once, in the untraced run)
RTG_HSA_POLL=each RTG_HSA_API_FILTER=all HSA_TOOLS_LIB="$T" $RUN "$B/progs/tp_bench" paced $n "$(get work_steps b.plain)" \
  >b.traced
recs=$(lines "HSA: .* hsa_signal_load_relaxed ")
awk -v p="$(get paced_ns b.plain)" -v t="$(get paced_ns b.traced)" -v c="$(cpair b.plain b.traced)" \
  -v recs="$recs" -v want=$((5 * n)) -v lost="$(field lost)" 'BEGIN {
  printf "(b) traced HSA call after ~300 ns of work: untraced %.1f ns, traced %.1f ns per iteration: added / clock pair = %.2f (target <= 2.0); records %d of %d, lost %d\n",
    p, t, (t - p) / c, recs, want, lost }'

# ---- (c) HIP
if [ -z "$BENCH_NO_HIP" ]; then
  h=200000
  [ -z "$quick" ] || h=50000
  rm -f rtg_trace.txt.*
  $RUN "$B/progs/tp_hip_bench" api $h >c.plain
  $RUN "$B/progs/tp_hip_bench" floor $h >c.floor
  RTG_HIP_API_FILTER=all HSA_TOOLS_LIB="$T" $RUN "$B/progs/tp_hip_bench" api $h >c.traced
  recs=$(lines "HIP: .* hipGetDevice ") lost=$(field lost)
  rm -f rtg_trace.txt.*
  RTG_HIP_PATH=callback RTG_HIP_API_FILTER=all HSA_TOOLS_LIB="$T" $RUN "$B/progs/tp_hip_bench" api $h >c.cb
  recs_cb=$(lines "HIP: .* hipGetDevice ")
  awk -v p="$(get api_ns c.plain)" -v f="$(get api_ns c.floor)" -v t="$(get api_ns c.traced)" \
    -v cb="$(get api_ns c.cb)" -v c="$(cpair c.plain c.traced)" -v recs="$recs" -v want=$((5 * h)) \
    -v lost="$lost" -v recs_cb="$recs_cb" -v lost_cb="$(field lost)" 'BEGIN {
    printf "(c) traced HIP call (real HIP): untraced %.1f ns, rtg %.1f ns: added / clock pair = %.2f (target <= 3.0); records %d of %d, lost %d\n",
      p, t, (t - p) / c, recs, want, lost
    printf "    with HIP'"'"'s callbacks (RTG_HIP_PATH=callback): empty tool callback %.1f ns, rtg %.1f ns: %.2f, of which HIP'"'"'s callback floor %.2f and rtg %.2f; records %d of %d, lost %d\n",
      f, cb, (cb - p) / c, (f - p) / c, (cb - f) / c, recs_cb, want, lost_cb }'
fi

# ---- (e) 20 M calls
if [ -z "$quick" ]; then
  rm -f rtg_trace.txt.*
  s0=$(date +%s%N)
  $RUN "$B/progs/tp_bench" api 4000000 >e.plain
  s1=$(date +%s%N)
  RTG_VERBOSE=1 RTG_HSA_POLL=each RTG_HSA_API_FILTER=all HSA_TOOLS_LIB="$T" $RUN "$B/progs/tp_bench" api 4000000 \
    >e.traced 2>e.err
  s2=$(date +%s%N)
  recs=$(lines "HSA: .* hsa_signal_load_relaxed ")
  size=$(du -m rtg_trace.txt.* | awk '{ print $1 }')
  awk -v rss0="$(get maxrss_kb e.plain)" -v rss="$(get maxrss_kb e.traced)" -v t0=$((s1 - s0)) \
    -v t1=$((s2 - s1)) -v recs="$recs" -v lost="$(field lost)" -v waits="$(field buffer_waits)" \
    -v wns="$(field buffer_wait_ns)" -v size="$size" 'BEGIN {
    printf "(e) 20 M traced calls: peak RSS %.0f MB (untraced %.0f MB; cap RTG_BUFFER_MB=256), elapsed %.2f s vs %.2f s: slowdown %.2fx; records %d of 20000000, lost %d, %d MB of trace; producer waited %d times, %.2f s\n",
      rss / 1024, rss0 / 1024, t1 / 1e9, t0 / 1e9, t1 / t0, recs, lost, size, waits, wns / 1e9 }'
  rm -f rtg_trace.txt.*
fi

# ---- (f) stretch: median of 5 alternating runs
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
stretch() { # label program mode count [floor]
  # floor: also run with an empty HIP tool registered for every op
  # (TP_EMPTY_TOOL=1), which is what HIP itself adds once any tool listens,
  # and with one registered only for an op the loop never calls
  # (TP_EMPTY_TOOL=idle): on HIP <= 5.3 any registration turns on HIP's
  # profiling of every command, callbacks or not
  label=$1 prog=$2 mode=$3 count=$4 floor=${5:-}
  : >s.plain
  : >s.traced
  : >s.floor
  : >s.idle
  lost=0 ops=0
  for i in 1 2 3 4 5; do
    SIMGPU_KERNEL_NS=20000 $RUN "$prog" "$mode" "$count" | get elapsed_ns /dev/stdin >>s.plain
    [ -z "$floor" ] || SIMGPU_KERNEL_NS=20000 TP_EMPTY_TOOL=1 $RUN "$prog" "$mode" "$count" |
      get elapsed_ns /dev/stdin >>s.floor
    [ -z "$floor" ] || SIMGPU_KERNEL_NS=20000 TP_EMPTY_TOOL=idle $RUN "$prog" "$mode" "$count" |
      get elapsed_ns /dev/stdin >>s.idle
    rm -f rtg_trace.txt.*
    SIMGPU_KERNEL_NS=20000 HSA_TOOLS_LIB="$T" $RUN "$prog" "$mode" "$count" |
      get elapsed_ns /dev/stdin >>s.traced
    lost=$((lost + $(field lost) + $(field unfinished)))
    ops=$((ops + $(lines "HSA: .* dispatch ")))
  done
  awk -v label="$label" -v p="$(median <s.plain)" -v t="$(median <s.traced)" -v lost="$lost" \
    -v ops="$ops" -v f="$(median <s.floor)" -v idle="$(median <s.idle)" 'BEGIN {
    printf "(f) stretch %-31s untraced %7.2f ms, traced %7.2f ms: %.2f (target <= 1.10); %d kernels recorded, lost %d",
      label, p / 1e6, t / 1e6, t / p, ops, lost
    if (f != "") printf "; HIP with an empty tool %.2f ms: %.2f, with one listening to no call of the loop %.2f", f / 1e6, f / p, idle / p
    printf "\n" }'
}
stretch "HSA back to back:" "$B/progs/tp_stretch" b2b 200
stretch "HSA submit-wait:" "$B/progs/tp_stretch" wait 200
stretch "HSA wait_any:" "$B/progs/tp_stretch" waitany 200
stretch "HSA async handler:" "$B/progs/tp_stretch" handler 200
stretch "HSA queue waits on queue:" "$B/progs/tp_stretch" dep 200
if [ -z "$BENCH_NO_HIP" ]; then
  stretch "HIP back to back:" "$B/progs/tp_hip_bench" b2b 200 floor
  stretch "HIP stream sync:" "$B/progs/tp_hip_bench" sync 200 floor
  stretch "HIP stream waits on stream:" "$B/progs/tp_hip_bench" dep 100 floor
  # the same with HIP's callbacks kept (HIP <= 5.3 then profiles every
  # command: the default hands over to the GOT after the loading call)
  RTG_HIP_PATH=callback stretch "HIP stream sync, HIP_PATH=callback:" "$B/progs/tp_hip_bench" sync 200
fi

# ---- (g) dispatch submission
SIMGPU_KERNEL_NS=1000 $RUN "$B/progs/tp_bench" dispatch 20480 >g.plain
SIMGPU_KERNEL_NS=1000 HSA_TOOLS_LIB="$T" $RUN "$B/progs/tp_bench" dispatch 20480 >g.traced
awk -v ps="$(get submit_ns g.plain)" -v ts="$(get submit_ns g.traced)" \
  -v pr="$(get dispatch_per_s g.plain)" -v tr="$(get dispatch_per_s g.traced)" 'BEGIN {
  printf "(g) dispatch submit: untraced %.0f ns, traced %.0f ns: added %.2f us (target <= 1 us); throughput traced/untraced %.2f\n",
    ps, ts, (ts - ps) / 1000, tr / pr }'
rm -f rtg_trace.txt.*
