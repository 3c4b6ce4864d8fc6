#!/bin/sh
# rtg-convert: the native Perfetto trace against the Chrome JSON, side by
# side in one run, on a trace dominated by HSA API records (the mix of an
# HSA program traced with RTG_HSA_API_FILTER=all; 53 MB, about 400 k lines
# by default).  Prints the lines/s of each output (target: Perfetto at least
# 2x the JSON's) and the size of the Perfetto trace as a share of the
# JSON's (target <= 1/3).  RUNS=N alternating runs of each (default 5); the
# best of each counts.
#   scripts/bench-perfetto.sh [SIZE_MB [rtg-convert options...]]  (default: 53 -f)
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
B=$(cd "${B:-$TOP/build}" && pwd)
SIZE_MB=${1:-53}
[ -n "${BENCH_QUICK:-}" ] && [ $# -eq 0 ] && SIZE_MB=5
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- -f
[ -x "$B/rtg-convert" ] || { echo "bench-perfetto: build first (make)" >&2; exit 1; }
DIR=$(mktemp -d "${TMPDIR:-/tmp}/rtg-bench.XXXXXX")
trap 'rm -rf "$DIR"' EXIT INT TERM
cc -O2 -I"$TOP/include" -o "$DIR/gen" "$TOP/scripts/bench-convert-gen.c" "$B/librtgcommon.a"
"$DIR/gen" $((SIZE_MB * 1024 * 1024)) 1 1 hsa > "$DIR/trace.txt"
cd "$DIR"
. "$TOP/scripts/measure.sh"
cat trace.txt > /dev/null # warm the page cache for all runs
lines=$(wc -l < trace.txt)
hsa=$(grep -c '^HSA: .* @' trace.txt || true)
RUNS=${RUNS:-5}
js= pf= fl= i=0
while [ $i -lt "$RUNS" ]; do
  i=$((i + 1))
  read -r s kb u y <<EOT
$(measure "$B/rtg-convert" -q "$@" -o out.json trace.txt)
EOT
  if [ -z "$js" ] || [ "$(best "$js" "$s")" = "$s" ]; then js=$s js_cpu=$(echo "$u $y" | awk '{print $1 + $2}') js_kb=$kb; fi
  read -r s kb u y <<EOT
$(measure "$B/rtg-convert" -q "$@" -o out.pftrace trace.txt)
EOT
  if [ -z "$pf" ] || [ "$(best "$pf" "$s")" = "$s" ]; then pf=$s pf_cpu=$(echo "$u $y" | awk '{print $1 + $2}') pf_kb=$kb; fi
  # the floor: reading and parsing with no timeline output (-w: a table of
  # the few distinct workgroup sizes)
  read -r s kb u y <<EOT
$(measure "$B/rtg-convert" -q -w trace.txt)
EOT
  fl=$(best "$fl" "$s")
done
jsz=$(wc -c < out.json)
pfz=$(wc -c < out.pftrace)
echo "bench-perfetto: input $((($(wc -c < trace.txt) + 524288) / 1048576)) MB, $lines lines ($hsa HSA API calls); options: $*; best of $RUNS runs each"
awk -v js="$js" -v pf="$pf" -v l="$lines" -v jsz="$jsz" -v pfz="$pfz" -v jc="$js_cpu" -v pc="$pf_cpu" \
  -v jk="$js_kb" -v pk="$pf_kb" -v fl="$fl" -v n="$(nproc)" -v la="$(cut -d' ' -f1 /proc/loadavg)" 'BEGIN {
  if (js < 0.001) js = 0.001
  if (pf < 0.001) pf = 0.001
  printf "bench-perfetto: JSON     %.3f s, %.2f M lines/s, %.1f MB, CPU %.2f s, peak RSS %.1f MB\n", js, l / js / 1e6, jsz / 1048576, jc, jk / 1024
  printf "bench-perfetto: Perfetto %.3f s, %.2f M lines/s, %.1f MB, CPU %.2f s, peak RSS %.1f MB\n", pf, l / pf / 1e6, pfz / 1048576, pc, pk / 1024
  printf "bench-perfetto: Perfetto/JSON: %.2fx the lines/s (target >= 2), %.2fx the CPU time, size %.3f (target <= 0.333); %d CPUs, load average %s\n", js / pf, pc / (jc > 0 ? jc : 0.01), pfz / jsz, n, la
  printf "bench-perfetto: floor: reading and parsing alone (-w) %.3f s, %.2f M lines/s: at most %.2fx the JSON lines/s for any output\n", fl, l / (fl > 0 ? fl : 0.001) / 1e6, js / (fl > 0 ? fl : 0.001)
}'
# The Python original (rocm-timeline-generator) is compared when it is
# installed (RTG_PYTHON_CONVERTER=path to its converter script).
if [ -n "${RTG_PYTHON_CONVERTER:-}" ] && [ -f "$RTG_PYTHON_CONVERTER" ]; then
  read -r s kb u y <<EOT
$(measure python3 "$RTG_PYTHON_CONVERTER" -o py.json trace.txt)
EOT
  awk -v py="$s" -v js="$js" -v l="$lines" 'BEGIN { printf "bench-perfetto: Python original %.3f s, %.2f M lines/s: the JSON path is %.1fx faster (target >= 50)\n", py, l / py / 1e6, py / js }'
else
  echo "bench-perfetto: Python original: not available here (set RTG_PYTHON_CONVERTER to compare)"
fi
