#!/bin/sh
# rtg-convert --analyze against the plain Chrome JSON conversion, side by
# side in one run (target: --analyze within 1.5x the JSON's time), on two
# generated traces: the HSA-heavy one of bench-perfetto (53 MB, about 400 k
# lines: an HSA program traced with RTG_HSA_API_FILTER=all) and a HIP one
# (150 MB, about 1 M lines: kernels and their launches). Prints each
# side's best time of RUNS alternating runs (default 3), the ratio, and
# --analyze's peak RSS (it keeps every op and call: see src/convert/README.md).
#   scripts/bench-analyze.sh
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
B=$(cd "${B:-$TOP/build}" && pwd)
[ -x "$B/rtg-convert" ] || { echo "bench-analyze: build first (make)" >&2; exit 1; }
DIR=$(mktemp -d "${TMPDIR:-/tmp}/rtg-bench.XXXXXX")
trap 'rm -rf "$DIR"' EXIT INT TERM
if [ -n "${GEN:-}" ]; then
  cp "$GEN" "$DIR/gen"
else
  cc -O2 -I"$TOP/include" -o "$DIR/gen" "$TOP/scripts/bench-convert-gen.c" "$B/librtgcommon.a"
fi
hsa_mb=53 hip_mb=150
[ -n "${BENCH_QUICK:-}" ] && hsa_mb=5 hip_mb=15
"$DIR/gen" $((hsa_mb * 1024 * 1024)) 1 1 hsa > "$DIR/hsa.txt"
"$DIR/gen" $((hip_mb * 1024 * 1024)) 1 1 > "$DIR/hip.txt"
cd "$DIR"
. "$TOP/scripts/measure.sh"
RUNS=${RUNS:-3}
for t in hsa hip; do
  cat $t.txt > /dev/null
  js= an= an_kb= i=0
  while [ $i -lt "$RUNS" ]; do
    i=$((i + 1))
    read -r s kb u y <<EOT
$(measure "$B/rtg-convert" -q -o out.json $t.txt)
EOT
    js=$(best "$js" "$s")
    read -r s kb u y <<EOT
$(measure "$B/rtg-convert" -q --analyze=an.json $t.txt)
EOT
    [ -z "$an" ] || [ "$(best "$an" "$s")" = "$s" ] && an_kb=$kb
    an=$(best "$an" "$s")
  done
  awk -v t=$t -v l="$(wc -l < $t.txt)" -v mb="$(($(wc -c < $t.txt) / 1048576))" -v j="$js" \
    -v a="$an" -v kb="$an_kb" -v r="$RUNS" -v n="$(nproc)" 'BEGIN {
    printf "bench-analyze: %s trace %d MB, %d lines: json %.3f s, --analyze %.3f s: ratio %.2f (target <= 1.5) %s; peak RSS %.0f MB; best of %d, %d CPUs\n",
      t, mb, l, j, a, a / j, a / j <= 1.5 ? "ok" : "OVER", kb / 1024, r, n }'
done
