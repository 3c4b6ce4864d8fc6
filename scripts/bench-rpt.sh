#!/bin/sh
# rpt benchmark: generates a synthetic input (10 million GPU commands by
# default, as an HCC_PROFILE=2 log with application text, or as an rtg
# trace) and prints rpt's time as a ratio to `wc -l` on the same file
# (target <= 10), and its peak RSS.
#   scripts/bench-rpt.sh [RECORDS [profile|trace [rpt options...]]]
# The machine is shared and noisy: `wc -l` and rpt run alternately RUNS
# times (default 3), every run is printed, and the ratio is of the best
# (shortest) run of each side.  BENCH_QUICK=1: 200000 commands by default.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
B=$(cd "${B:-$TOP/build}" && pwd)
if [ "${BENCH_QUICK:-0}" = 1 ]; then N=${1:-200000}; else N=${1:-10000000}; fi
MODE=${2:-profile}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] && shift
RUNS=${RUNS:-3}
[ -x "$B/rpt" ] || { echo "bench-rpt: build first (make)" >&2; exit 1; }
DIR=$(mktemp -d "${TMPDIR:-/tmp}/rtg-bench-rpt.XXXXXX")
trap 'rm -rf "$DIR"' EXIT INT TERM
cc -O2 -I"$TOP/include" -I"$TOP/src/common" -o "$DIR/gen" "$TOP/scripts/bench-rpt-gen.c" "$B/librtgcommon.a"
"$DIR/gen" "$N" "$MODE" > "$DIR/input.txt"
cd "$DIR"
. "$TOP/scripts/measure.sh"
cat input.txt > /dev/null # warm the page cache for all runs
lines=$(wc -l < input.txt)
bytes=$(wc -c < input.txt)
echo "bench-rpt: $N commands ($MODE), $lines lines, $((bytes / 1048576)) MB; options: ${*:-(none)}; $RUNS runs of each, alternately"
wc_s= rpt_s= i=0
while [ "$i" -lt "$RUNS" ]; do
  i=$((i + 1))
  read -r w _ _ _ <<EOT
$(measure wc -l input.txt)
EOT
  wc_s=$(best "$wc_s" "$w")
  read -r s kb u y <<EOT
$(measure "$B/rpt" "$@" input.txt)
EOT
  if [ -z "$rpt_s" ] || [ "$(best "$rpt_s" "$s")" = "$s" ]; then
    rpt_s=$s rpt_kb=$kb rpt_u=$u rpt_y=$y
  fi
  echo "bench-rpt: run $i: wc -l $w s, rpt $s s (CPU $u s user + $y s system)"
done
awk -v w="$wc_s" -v r="$rpt_s" -v n="$N" -v kb="$rpt_kb" -v u="$rpt_u" -v y="$rpt_y" -v c="$(nproc)" -v la="$(cut -d' ' -f1 /proc/loadavg)" 'BEGIN {
  if (w < 0.001) w = 0.001
  printf "bench-rpt: best wc -l %.3f s, best rpt %.3f s: ratio %.2f (target <= 10), %.0f records/s, peak RSS %.0f MB (%.0f bytes/record)\n",
    w, r, r / w, n / (r > 0 ? r : 0.01), kb / 1024, kb * 1024 / n
  printf "bench-rpt: best rpt run: CPU %.2f s user + %.2f s system on %d CPUs (load average %s)\n", u, y, c, la
}'
