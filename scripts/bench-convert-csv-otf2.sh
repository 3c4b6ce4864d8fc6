#!/bin/sh
# rtg-convert's --csv (rocprofv3 CSV files) and --otf2 (OTF2 archive) against
# its Chrome JSON (-o) on bench-convert.sh's generated trace (256 MB by
# default): each output alone, the three run alternately RUNS times (default
# 3), the best run of each counts.  Prints per output the time, lines/s, the
# speed relative to the JSON's, the output's size and the peak RSS.
#   scripts/bench-convert-csv-otf2.sh [SIZE_MB]      (BENCH_QUICK=1: 16 MB)
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
B=$(cd "${B:-$TOP/build}" && pwd)
if [ "${BENCH_QUICK:-0}" = 1 ]; then SIZE_MB=${1:-16}; else SIZE_MB=${1:-256}; fi
[ -x "$B/rtg-convert" ] || { echo "bench-convert-csv-otf2: build first (make)" >&2; exit 1; }
DIR=$(mktemp -d "${TMPDIR:-/tmp}/rtg-bench.XXXXXX")
trap 'rm -rf "$DIR"' EXIT INT TERM
cc -O2 -I"$TOP/include" -o "$DIR/gen" "$TOP/scripts/bench-convert-gen.c" "$B/librtgcommon.a"
"$DIR/gen" $((SIZE_MB * 1024 * 1024)) 1 4 >"$DIR/trace.txt"
cd "$DIR"
. "$TOP/scripts/measure.sh"
cat trace.txt >/dev/null # warm the page cache for all runs
lines=$(wc -l <trace.txt)
if ! "$B/rtg-convert" -q --otf2 probe /dev/null 2>/dev/null; then
  echo "bench-convert-csv-otf2: rtg-convert built without OTF2: --otf2 not measured"
  outputs="json csv"
else
  outputs="json csv otf2"
fi
rm -rf probe
RUNS=${RUNS:-3}
i=0
while [ $i -lt "$RUNS" ]; do
  i=$((i + 1))
  for o in $outputs; do
    rm -rf out.json csv otf2
    case $o in
    json) set -- -o out.json ;;
    csv) set -- --csv csv ;;
    otf2) set -- --otf2 otf2 ;;
    esac
    read -r s kb u y <<EOT
$(measure "$B/rtg-convert" -q "$@" trace.txt)
EOT
    eval "prev=\${best_$o:-}"
    if [ -z "$prev" ] || [ "$(best "$prev" "$s")" = "$s" ]; then
      eval "best_$o=$s kb_$o=$kb"
      eval "size_$o=$(du -sk out.json csv otf2 2>/dev/null | awk '{ n += $1 } END { print n }')"
    fi
  done
done
echo "bench-convert-csv-otf2: input $SIZE_MB MB, $lines lines; best of $RUNS runs each"
for o in $outputs; do
  eval "s=\$best_$o kb=\$kb_$o size=\$size_$o"
  awk -v o="$o" -v s="$s" -v j="$best_json" -v l="$lines" -v kb="$kb" -v sz="$size" 'BEGIN {
    name = o == "json" ? "-o out.json" : o == "csv" ? "--csv DIR " : "--otf2 DIR"
    printf "bench-convert-csv-otf2: %s %.3f s, %.2f M lines/s, %.2fx the JSON'"'"'s speed, output %.0f MB, peak RSS %.1f MB\n",
      name, s, l / s / 1e6, j / s, sz / 1024, kb / 1024
  }'
done
