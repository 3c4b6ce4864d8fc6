#!/bin/sh
# rtg-convert benchmark: generates a synthetic trace (1 GB by default) and
# prints, from one conversion run, the time as a ratio to `wc -l` on the same
# file (target <= 5) and the peak RSS (target <= 64 MB beyond the tables of
# unique names; this trace has few names, so the RSS is the streaming cost).
#   scripts/bench-convert.sh [SIZE_MB [rtg-convert options...]]
# Default options: -f -o out.json (Chrome JSON with flow arrows); RUNS=N
# runs of each side (default 3), the best of each counts.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
B=$(cd "${B:-$TOP/build}" && pwd)
SIZE_MB=${1:-1024}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- -f -o out.json
[ -x "$B/rtg-convert" ] || { echo "bench-convert: build first (make)" >&2; exit 1; }
DIR=$(mktemp -d "${TMPDIR:-/tmp}/rtg-bench.XXXXXX")
trap 'rm -rf "$DIR"' EXIT INT TERM
cc -O2 -I"$TOP/include" -o "$DIR/gen" "$TOP/scripts/bench-convert-gen.c" "$B/librtgcommon.a"
"$DIR/gen" $((SIZE_MB * 1024 * 1024)) 1 4 > "$DIR/trace.txt"
bytes=$(wc -c < "$DIR/trace.txt")
cd "$DIR"
. "$TOP/scripts/measure.sh"
cat trace.txt > /dev/null # warm the page cache for all runs
set -- "$B/rtg-convert" -q "$@" trace.txt
# The machine is shared and noisy: the commands run alternately RUNS times
# and each side keeps its best (shortest) run.  The floor is the time to
# write a file of the output's size (zeros from /dev/zero), which no converter
# of this output can beat: it shows how much of the ratio is the output.
RUNS=${RUNS:-3}
wc_s= cv_s= fl_s= i=0
while [ $i -lt "$RUNS" ]; do
  i=$((i + 1))
  read -r s kb u y <<EOT
$(measure wc -l trace.txt)
EOT
  wc_s=$(best "$wc_s" "$s")
  read -r s kb u y <<EOT
$(measure "$@")
EOT
  if [ -z "$cv_s" ] || [ "$(best "$cv_s" "$s")" = "$s" ]; then
    cv_s=$s cv_kb=$kb cv_u=$u cv_y=$y
  fi
  read -r s kb u y <<EOT
$(measure sh -c 'head -c "$(wc -c < out.json)" /dev/zero > floor.json' 2>/dev/null || echo 0 0 0 0)
EOT
  rm -f floor.json
  fl_s=$(best "$fl_s" "$s")
done
lines=$(wc -l < trace.txt)
out=$(ls -l out.json 2>/dev/null | awk '{print $5}')
echo "bench-convert: input $((bytes / 1048576)) MB, $lines lines; options: $*; best of $RUNS runs each" | sed "s|$B/||; s| trace.txt||"
awk -v w="$wc_s" -v c="$cv_s" -v f="$fl_s" -v l="$lines" -v kb="$cv_kb" -v o="${out:-0}" -v u="$cv_u" -v y="$cv_y" -v n="$(nproc)" -v la="$(cut -d' ' -f1 /proc/loadavg)" 'BEGIN {
  if (w < 0.001) w = 0.001
  printf "bench-convert: wc -l %.3f s, rtg-convert %.3f s: ratio %.2f (target <= 5), %.0f lines/s\n", w, c, c / w, l / (c > 0 ? c : 0.01)
  printf "bench-convert: floor: writing the %.0f MB of output alone (zeros) %.3f s: ratio %.2f to wc -l\n", o / 1048576, f, f / w
  printf "bench-convert: peak RSS %.1f MB (target <= 64 MB)\n", kb / 1024
  printf "bench-convert: CPU %.2f s user + %.2f s system on %d CPUs (load average %s)\n", u, y, n, la
}'
