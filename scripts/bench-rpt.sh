#!/bin/sh
# rpt benchmark: generates a synthetic input (10 million GPU commands by
# default, as an HCC_PROFILE=2 log with application text, or as an rtg
# trace) and prints, from one run of rpt, its time as a ratio to `wc -l` on
# the same file (target <= 10) and its peak RSS.
#   scripts/bench-rpt.sh [RECORDS [profile|trace [rpt options...]]]
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
B=$(cd "${B:-$TOP/build}" && pwd)
N=${1:-10000000}
MODE=${2:-profile}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] && shift
[ -x "$B/rpt" ] || { echo "bench-rpt: build first (make)" >&2; exit 1; }
DIR=$(mktemp -d "${TMPDIR:-/tmp}/rtg-bench-rpt.XXXXXX")
trap 'rm -rf "$DIR"' EXIT INT TERM
cc -O2 -I"$TOP/include" -I"$TOP/src/common" -o "$DIR/gen" "$TOP/scripts/bench-rpt-gen.c" "$B/librtgcommon.a"
"$DIR/gen" "$N" "$MODE" > "$DIR/input.txt"
cd "$DIR"
# seconds and peak RSS (KB) of one run of a command
measure() {
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -f '%e %M' -o "$DIR/time.txt" "$@" > /dev/null
  else
    python3 -c 'import resource,subprocess,sys,time
t=time.time(); subprocess.run(sys.argv[1:],stdout=subprocess.DEVNULL,check=True)
print("%.2f %d"%(time.time()-t,resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))' "$@" > "$DIR/time.txt"
  fi
  cat "$DIR/time.txt"
}
cat input.txt > /dev/null # warm the page cache for both runs
read -r wc_s wc_kb <<EOT
$(measure wc -l input.txt)
EOT
read -r rpt_s rpt_kb <<EOT
$(measure "$B/rpt" "$@" input.txt)
EOT
lines=$(wc -l < input.txt)
bytes=$(wc -c < input.txt)
echo "bench-rpt: $N commands ($MODE), $lines lines, $((bytes / 1048576)) MB; options: ${*:-(none)}"
awk -v w="$wc_s" -v r="$rpt_s" -v n="$N" -v kb="$rpt_kb" 'BEGIN {
  if (w < 0.01) w = 0.01
  printf "bench-rpt: wc -l %.2f s, rpt %.2f s: ratio %.2f (target <= 10), %.0f records/s, peak RSS %.0f MB (%.0f bytes/record)\n",
    w, r, r / w, n / (r > 0 ? r : 0.01), kb / 1024, kb * 1024 / n
}'
