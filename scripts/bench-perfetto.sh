#!/bin/sh
# rtg-convert: the native Perfetto trace against the Chrome JSON, side by
# side in one run, on a trace dominated by HSA API records (the mix of an
# HSA program traced with RTG_HSA_API_FILTER=all; 53 MB, about 400 k lines
# by default), then on a natural trace of the simulated GPU (hsa_threads:
# 4 threads x 2000 dispatches, every HSA call traced; NAT_DISPATCHES=N per
# thread; NAT_TRACE=FILE: that trace instead, made before).  Prints the lines/s of each output (target: Perfetto at least
# the JSON's) and the size of the Perfetto trace as a share of the
# JSON's (target <= 1/3), the floor (reading and parsing alone), and, with
# RTG_PY_ORIGINAL=path/to/rocm-timeline-generator.py, the Python original
# on the same trace (target: the JSON path at least 50x as fast).  RUNS=N
# alternating runs of each (default 5); the best of each counts.  B=DIR:
# the build measured (default build/); BASE=DIR: another build (a build
# directory with rtg-convert, or rtg-convert itself), whose Perfetto path
# runs in the same loop on the same traces, compared with B's (speed and
# size, and whether the two traces are the same bytes, padding apart).
#   scripts/bench-perfetto.sh [SIZE_MB [rtg-convert options...]]  (default: 53 -f)
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
B=$(cd "${B:-$TOP/build}" && pwd)
SIZE_MB=${1:-53}
[ -n "${BENCH_QUICK:-}" ] && [ $# -eq 0 ] && SIZE_MB=5
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- -f
[ -x "$B/rtg-convert" ] || { echo "bench-perfetto: build first (make)" >&2; exit 1; }
BASE_CV=
if [ -n "${BASE:-}" ]; then
  if [ -d "$BASE" ]; then BASE_CV=$(cd "$BASE" && pwd)/rtg-convert; else BASE_CV=$(cd "$(dirname "$BASE")" && pwd)/$(basename "$BASE"); fi
  [ -x "$BASE_CV" ] || { echo "bench-perfetto: BASE=$BASE: no rtg-convert there" >&2; exit 1; }
fi
DIR=$(mktemp -d "${TMPDIR:-/tmp}/rtg-bench.XXXXXX")
trap 'rm -rf "$DIR"' EXIT INT TERM
# (GEN=path: a generator built before, for a machine without a compiler)
if [ -n "${GEN:-}" ]; then
  cp "$GEN" "$DIR/gen"
else
  cc -O2 -I"$TOP/include" -o "$DIR/gen" "$TOP/scripts/bench-convert-gen.c" "$B/librtgcommon.a"
fi
"$DIR/gen" $((SIZE_MB * 1024 * 1024)) 1 1 hsa > "$DIR/trace.txt"
cd "$DIR"
. "$TOP/scripts/measure.sh"
cat trace.txt > /dev/null # warm the page cache for all runs
lines=$(wc -l < trace.txt)
hsa=$(grep -c '^HSA: .* @' trace.txt || true)
RUNS=${RUNS:-5}
# The Python original (rocm-timeline-generator.py, RTG_PY_ORIGINAL=its
# path) runs on the same trace with the same flags, in the same loop, in
# the first PY_RUNS rounds (default 2: it takes seconds).  It takes only
# its own single-letter flags.
PY=${RTG_PY_ORIGINAL:-}
PY_RUNS=${PY_RUNS:-2}
py_why=
if [ -z "$PY" ]; then
  py_why="RTG_PY_ORIGINAL is not set (the path of rocm-timeline-generator.py)"
elif [ ! -f "$PY" ]; then
  py_why="RTG_PY_ORIGINAL=$PY is not a file"
elif ! command -v python3 > /dev/null; then
  py_why="python3 is not installed"
else
  for o in "$@"; do
    case $o in -[fgkp] | -[fgkp][fgkp] | -[fgkp][fgkp][fgkp]) ;; *) py_why="the original has no option $o" ;; esac
  done
fi
# side by side: the JSON, the Perfetto trace and the floor of one input
# (the Python original on the generated trace only)
compare() {
js= pf= fl= fl_cpu= bs= i=0
while [ $i -lt "$RUNS" ]; do
  i=$((i + 1))
  if [ -z "$py_why" ] && [ $i -le "$PY_RUNS" ]; then
    read -r s kb u y <<EOT
$(measure sh -c 'exec python3 "$@" > py.txt' sh "$PY" "$@" -o py.json trace.txt)
EOT
    py=$(best "$py" "$s")
  fi
  read -r s kb u y <<EOT
$(measure "$B/rtg-convert" -q "$@" -o out.json "$in")
EOT
  if [ -z "$js" ] || [ "$(best "$js" "$s")" = "$s" ]; then js=$s js_cpu=$(echo "$u $y" | awk '{print $1 + $2}') js_kb=$kb; fi
  read -r s kb u y <<EOT
$(measure "$B/rtg-convert" -q "$@" -o out.pftrace "$in")
EOT
  if [ -z "$pf" ] || [ "$(best "$pf" "$s")" = "$s" ]; then pf=$s pf_cpu=$(echo "$u $y" | awk '{print $1 + $2}') pf_kb=$kb; fi
  if [ -n "$BASE_CV" ]; then # the other build's Perfetto path, in the same loop
    read -r s kb u y <<EOT
$(measure "$BASE_CV" -q "$@" -o base.pftrace "$in")
EOT
    if [ -z "$bs" ] || [ "$(best "$bs" "$s")" = "$s" ]; then bs=$s bs_cpu=$(echo "$u $y" | awk '{print $1 + $2}') bs_kb=$kb; fi
  fi
  # the floor: reading and parsing with no timeline output (-w: a table of
  # the few distinct workgroup sizes)
  read -r s kb u y <<EOT
$(measure "$B/rtg-convert" -q -w "$in")
EOT
  if [ -z "$fl" ] || [ "$(best "$fl" "$s")" = "$s" ]; then fl=$s fl_cpu=$(echo "$u $y" | awk '{print $1 + $2}'); fi
done
jsz=$(wc -c < out.json)
pfz=$(wc -c < out.pftrace)
lines=$(wc -l < "$in")
hsa=$(grep -c '^HSA: .* @' "$in" || true)
echo "bench-perfetto: $what: input $((($(wc -c < "$in") + 524288) / 1048576)) MB, $lines lines ($hsa HSA API calls); options: $*; best of $RUNS runs each"
awk -v js="$js" -v pf="$pf" -v l="$lines" -v jsz="$jsz" -v pfz="$pfz" -v jc="$js_cpu" -v pc="$pf_cpu" \
  -v jk="$js_kb" -v pk="$pf_kb" -v fl="$fl" -v fc="$fl_cpu" -v n="$(nproc)" -v la="$(cut -d' ' -f1 /proc/loadavg)" 'BEGIN {
  if (js < 0.001) js = 0.001
  if (pf < 0.001) pf = 0.001
  printf "bench-perfetto: JSON     %.3f s, %.2f M lines/s, %.1f MB, CPU %.2f s, peak RSS %.1f MB\n", js, l / js / 1e6, jsz / 1048576, jc, jk / 1024
  printf "bench-perfetto: Perfetto %.3f s, %.2f M lines/s, %.1f MB, CPU %.2f s, peak RSS %.1f MB\n", pf, l / pf / 1e6, pfz / 1048576, pc, pk / 1024
  printf "bench-perfetto: Perfetto/JSON: %.2fx the lines/s (target >= 1), %.2fx the CPU time, size %.3f (target <= 0.333); %d CPUs, load average %s\n", js / pf, pc / (jc > 0 ? jc : 0.01), pfz / jsz, n, la
  printf "bench-perfetto: floor: reading and parsing alone (-w) %.3f s, %.2f M lines/s, CPU %.2f s: at most %.2fx the JSON lines/s for any output\n", fl, l / (fl > 0 ? fl : 0.001) / 1e6, fc, js / (fl > 0 ? fl : 0.001)
}'
if [ -n "$BASE_CV" ]; then
  bsz=$(wc -c < base.pftrace)
  # (padding packets, which fill the room left before the events, apart)
  strip="$TOP/tests/perfetto/strip_padding.py"
  if cmp -s base.pftrace out.pftrace; then
    same="the same bytes"
  elif command -v python3 > /dev/null && python3 "$strip" base.pftrace > base.s 2> /dev/null &&
    python3 "$strip" out.pftrace > out.s 2> /dev/null && cmp -s base.s out.s; then
    same="the same bytes but for padding"
  else
    same="not the same bytes"
  fi
  awk -v bs="$bs" -v pf="$pf" -v js="$js" -v l="$lines" -v bsz="$bsz" -v pfz="$pfz" -v jsz="$jsz" -v bc="$bs_cpu" \
    -v pc="$pf_cpu" -v bk="$bs_kb" -v same="$same" 'BEGIN {
    if (bs < 0.001) bs = 0.001
    printf "bench-perfetto: BASE Perfetto %.3f s, %.2f M lines/s, %.1f MB, CPU %.2f s, peak RSS %.1f MB\n", bs, l / bs / 1e6, bsz / 1048576, bc, bk / 1024
    printf "bench-perfetto: Perfetto/BASE Perfetto: %.2fx the lines/s, %.2fx the CPU time, %.4f the size (BASE/JSON: %.2fx the lines/s, size %.4f); %s\n", bs / pf, pc / (bc > 0 ? bc : 0.01), pfz / bsz, js / bs, bsz / jsz, same
  }'
fi
}
py=
what="generated trace" in=trace.txt
compare "$@"

# The original against the JSON path: the same trace, both outputs'
# events counted by phase, and how many lines the original took as records
# (its own counters), so that a trace it could not read shows as such.
if [ -n "$py_why" ]; then
  echo "bench-perfetto: Python original: comparison skipped: $py_why"
else
  py_recs=$(awk -F: '/ (hsa|hip|hcc|strace) lines:/ && !/missed/ { n += $2 } END { print n + 0 }' py.txt)
  phases() { grep -o '"ph":"[A-Za-z]"' "$1" | sort | uniq -c | awk '{ printf "%s%s %s", (NR > 1 ? ", " : ""), substr($2, 7, 1), $1 }'; }
  echo "bench-perfetto: Python original: read $py_recs of $lines lines as records; events by phase: original $(phases py.json); rtg JSON $(phases out.json)"
  awk -v py="$py" -v js="$js" -v pf="$pf" -v fl="$fl" -v l="$lines" -v n="$py_recs" -v r="$((PY_RUNS < RUNS ? PY_RUNS : RUNS))" 'BEGIN {
    printf "bench-perfetto: Python original %.3f s (best of %d), %.2f M lines/s: the JSON path is %.1fx faster (target >= 50), the Perfetto path %.1fx, reading and parsing alone %.1fx\n", py, r, l / py / 1e6, py / js, py / pf, py / (fl > 0 ? fl : 0.001)
    if (n < 0.99 * l) printf "bench-perfetto: the original read only %.0f%% of the lines: the comparison does not hold\n", 100 * n / l
  }'
fi
# A natural trace: the simulated GPU's hsa_threads traced with every HSA
# call (needs the build's simulated GPU and examples; RUNS as above, no
# Python original)
NAT_DISPATCHES=${NAT_DISPATCHES:-2000}
if [ -n "${NAT_TRACE:-}" ]; then
  what="natural trace ($NAT_TRACE)" in=$NAT_TRACE
  py_why="the natural trace"
  compare "$@"
elif [ -x "$B/examples/hsa_threads" ] && [ -e "$B/simgpu/libhsakmt.so.1" ] && [ -x "$B/rtg-trace" ]; then
  mkdir -p nat
  (cd nat && LD_LIBRARY_PATH="$B/simgpu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    "$B/rtg-trace" --hsa-trace -o . "$B/examples/hsa_threads" 4 "$NAT_DISPATCHES" > /dev/null)
  cat nat/rtg_trace.txt.* > natural.txt
  py_why="the natural trace" # (no Python original on it)
  what="natural trace (hsa_threads 4 x $NAT_DISPATCHES, all HSA calls)" in=natural.txt
  compare "$@"
else
  echo "bench-perfetto: natural trace skipped: $B has no simulated GPU, examples or rtg-trace"
fi
