#!/bin/sh
# The HTML report's benchmark (issue 27): on a synthetic trace of about 1 M
# events (scripts/bench-convert-gen.c), rtg-convert --html against the plain
# Chrome JSON conversion (-o out.json), best of RUNS runs each, alternately:
#   - time ratio html / json   (target < 2)
#   - size ratio html / json   (target <= 20 %)
#   - the first chart drawn in headless Chromium (target < 2 s; through
#     playwright-core, scripts/playwright.sh installs it)
#   scripts/bench-html.sh [SIZE_MB]     (default 150: 1.0 M lines)
# BENCH_QUICK=1 makes the trace 15 MB; GEN=path: a generator built before
# (a machine without a compiler); BENCH_BROWSERS="" skips the browsers (a
# machine without them; default "chromium firefox").  B=DIR: the build to
# measure (default build/; DIR/rtg-convert, and DIR/librtgcommon.a or
# build/'s for the generator); BASE=DIR: another build (e.g. main's) run
# in the same loop, alternately, its time line printed as "base", and
# whether its report is B's byte for byte, or has the same data elements
# (#rtg-bin, #rtg-analysis, #rtg-meta) and page in another order.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
B=$(cd "${B:-$TOP/build}" && pwd)
SIZE_MB=${1:-150}
[ -n "${BENCH_QUICK:-}" ] && SIZE_MB=15
[ -x "$B/rtg-convert" ] || { echo "bench-html: build first (make)" >&2; exit 1; }
DIR=$(mktemp -d "${TMPDIR:-/tmp}/rtg-bench-html.XXXXXX")
trap 'rm -rf "$DIR"' EXIT INT TERM
BASE=${BASE:+$(cd "$BASE" && pwd)}
[ -z "$BASE" ] || [ -x "$BASE/rtg-convert" ] || { echo "bench-html: no $BASE/rtg-convert" >&2; exit 1; }
if [ -n "${GEN:-}" ]; then
  cp "$GEN" "$DIR/gen"
else
  LIB=$B/librtgcommon.a
  [ -f "$LIB" ] || LIB=$TOP/build/librtgcommon.a
  [ -f "$LIB" ] || { echo "bench-html: no librtgcommon.a in $B or $TOP/build (make, or GEN=)" >&2; exit 1; }
  cc -O2 -I"$TOP/include" -o "$DIR/gen" "$TOP/scripts/bench-convert-gen.c" "$LIB"
fi
"$DIR/gen" $((SIZE_MB * 1024 * 1024)) 1 1 > "$DIR/trace.txt"
cd "$DIR"
. "$TOP/scripts/measure.sh"
cat trace.txt > /dev/null
RUNS=${RUNS:-3}
js= hs= bjs= bhs= i=0
while [ $i -lt "$RUNS" ]; do
  i=$((i + 1))
  read -r s kb u y <<EOT
$(measure "$B/rtg-convert" -q -o out.json trace.txt)
EOT
  js=$(best "$js" "$s")
  read -r s kb u y <<EOT
$(measure "$B/rtg-convert" -q --html report.html trace.txt)
EOT
  if [ -z "$hs" ] || [ "$(best "$hs" "$s")" = "$s" ]; then hs=$s hkb=$kb; fi
  [ -n "$BASE" ] || continue
  read -r s kb u y <<EOT
$(measure "$BASE/rtg-convert" -q -o base.json trace.txt)
EOT
  bjs=$(best "$bjs" "$s")
  read -r s kb u y <<EOT
$(measure "$BASE/rtg-convert" -q --html base.html trace.txt)
EOT
  bhs=$(best "$bhs" "$s")
done
events=$(python3 -c 'import json,re,sys
s=open(sys.argv[1]).read()
m=json.loads(re.search(r"id=\"rtg-meta\">(.*?)</script>",s,re.S).group(1))
print(m["events_total"], m["events"])' report.html)
set -- $events
jb=$(wc -c < out.json) hb=$(wc -c < report.html)
echo "bench-html: $(wc -l < trace.txt) lines, $1 events on the timeline ($2 embedded); best of $RUNS runs each; $(nproc) CPUs, load average $(cut -d' ' -f1 /proc/loadavg)"
if [ -n "$BASE" ]; then
  awk -v j="$bjs" -v h="$bhs" 'BEGIN {
    printf "bench-html: base: json %.3f s, html %.3f s: ratio %.2f (target < 2) %s\n", j, h, h / j, h / j < 2 ? "ok" : "OVER"
  }'
  if cmp -s base.html report.html; then
    echo "bench-html: base: the same report"
  elif python3 - base.html report.html <<'EOP'; then
import re, sys
def parts(p):  # the data elements by id, and the page around them
    s = open(p, encoding="latin-1").read()
    el = re.compile(r'<script type="[^"]+" id="(rtg-[a-z]+)">(.*?)</script>\n?', re.S)
    return dict(el.findall(s)), el.sub("", s)
sys.exit(parts(sys.argv[1]) != parts(sys.argv[2]))
EOP
    echo "bench-html: base: the same data and page, the elements in another order"
  else
    echo "bench-html: base: another report"
  fi
fi
awk -v j="$js" -v h="$hs" -v jb="$jb" -v hb="$hb" -v kb="$hkb" 'BEGIN {
  printf "bench-html: time: json %.3f s, html %.3f s: ratio %.2f (target < 2) %s\n", j, h, h / j, h / j < 2 ? "ok" : "OVER"
  printf "bench-html: size: json %.1f MB, html %.1f MB: %.1f %% (target <= 20 %%) %s\n", jb / 1048576, hb / 1048576, 100 * hb / jb, hb <= 0.2 * jb ? "ok" : "OVER"
  printf "bench-html: peak RSS of the html run %.0f MB\n", kb / 1024
}'
for browser in ${BENCH_BROWSERS-chromium firefox}; do
  ms=$(RTG_BROWSER=$browser "$TOP/scripts/browser-test-html.sh" bench report.html | sed -n 's/^BENCH_FIRST_CHART_MS=//p')
  [ -n "$ms" ] || { echo "bench-html: $browser did not draw the report"; exit 1; }
  awk -v ms="$ms" -v b="$browser" 'BEGIN { printf "bench-html: first chart drawn in headless %s after %.2f s (target < 2 s) %s\n", b, ms / 1000, ms < 2000 ? "ok" : "OVER" }'
done
