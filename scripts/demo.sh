#!/bin/sh
# make demo: trace an example program with rtg_tracer.so, convert the trace,
# print why its GPU was idle (the verdicts and the rules of --analyze) and
# the rpt summary.  Runs on the real GPU when /dev/kfd exists,
# otherwise on the simulated GPU (tests/simgpu) under the real ROCm runtime.
set -eu
B=${B:-build}
B=$(cd "$B" && pwd)
out=${RTG_DEMO_DIR:-$B/demo}
rm -rf "$out"
mkdir -p "$out"

if [ -e /dev/kfd ] && [ -z "${RTG_DEMO_SIMGPU:-}" ]; then
  echo "== real AMD GPU found (/dev/kfd): tracing on it"
  libpath=""
else
  echo "== no /dev/kfd: running the real ROCm runtime on the simulated GPU ($B/simgpu)"
  libpath="$B/simgpu"
fi

app="$B/examples/hip_streams"
[ -x "$app" ] || app="$B/examples/hsa_vadd"
if [ ! -x "$app" ]; then
  echo "demo: no example program built yet ($B/examples)" >&2
  exit 1
fi

echo "== tracing: HSA_TOOLS_LIB=$B/rtg_tracer.so $app"
(
  cd "$out"
  LD_LIBRARY_PATH="$libpath${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    HSA_TOOLS_LIB="$B/rtg_tracer.so" RTG_HSA_HOST_DISPATCH=1 RTG_HSA_API_FILTER=all "$app"
)

set -- "$out"/rtg_trace.txt.*
if [ ! -f "$1" ]; then
  echo "demo: the tracer wrote no trace in $out" >&2
  exit 1
fi
echo "== trace files: $*"
echo "== records: $(cat "$@" | wc -l) lines"
echo "== agents the runtime reported (from the trace's agent records):"
grep -h '^RTG: .* agent ' "$@" | sed 's/^RTG: pid:[0-9]* tid:[0-9]* agent /   /'

echo "== converting: rtg-convert $* -o $out/trace.json -f --stats=$out --summary"
"$B/rtg-convert" "$@" -o "$out/trace.json" -f --stats="$out" --summary
echo "   statistics: $(cd "$out" && ls *_stats.csv | tr '\n' ' ')"

echo "== why the GPU was idle: rtg-convert --analyze=$out/analyze.json"
"$B/rtg-convert" -q "$@" --analyze="$out/analyze.json" | awk '/, pid [0-9]+, host /{exit} {print}'

echo "== the HTML report: rtg-convert $* --html $out/report.html"
"$B/rtg-convert" -q "$@" --html "$out/report.html" >/dev/null

echo "== rpt summary"
"$B/rpt" "$@"

echo
echo "Timeline JSON: $out/trace.json  (open in https://ui.perfetto.dev or chrome://tracing)"
echo "HTML report:   $out/report.html  (open in any browser, offline)"
