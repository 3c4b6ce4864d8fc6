#!/bin/sh
# rtg-convert benchmark: generates a synthetic trace (1 GB by default) and
# prints, from one conversion run, the time as a ratio to `wc -l` on the same
# file (target <= 5) and the peak RSS (target <= 64 MB beyond the tables of
# unique names; this trace has few names, so the RSS is the streaming cost).
#   scripts/bench-convert.sh [SIZE_MB [rtg-convert options...]]
# Default options: -f -o out.json (Chrome JSON with flow arrows).
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
# seconds of a command, its peak RSS in KB and its CPU seconds (user+sys:
# on a shared machine the elapsed time also counts other load), one run
measure() {
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -f '%e %M %U %S' -o "$DIR/time.txt" "$@" > /dev/null
  else # fall back to python's resource module
    python3 -c 'import resource,subprocess,sys,time
t=time.time(); subprocess.run(sys.argv[1:],stdout=subprocess.DEVNULL,check=True)
r=resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.2f %d %.2f %.2f"%(time.time()-t,r.ru_maxrss,r.ru_utime,r.ru_stime))' "$@" > "$DIR/time.txt"
  fi
  cat "$DIR/time.txt"
}
cat trace.txt > /dev/null # warm the page cache for both runs
set -- "$B/rtg-convert" -q "$@" trace.txt
read -r wc_s wc_kb wc_u wc_y <<EOT
$(measure wc -l trace.txt)
EOT
read -r cv_s cv_kb cv_u cv_y <<EOT
$(measure "$@")
EOT
lines=$(wc -l < trace.txt)
out=$(ls -l out.json 2>/dev/null | awk '{print $5}')
echo "bench-convert: input $((bytes / 1048576)) MB, $lines lines; options: $*" | sed "s|$B/||; s| trace.txt||"
awk -v w="$wc_s" -v c="$cv_s" -v l="$lines" -v kb="$cv_kb" -v o="${out:-0}" -v u="$cv_u" -v y="$cv_y" -v n="$(nproc)" -v la="$(cut -d' ' -f1 /proc/loadavg)" 'BEGIN {
  if (w < 0.01) w = 0.01
  printf "bench-convert: wc -l %.2f s, rtg-convert %.2f s: ratio %.2f (target <= 5), %.0f lines/s\n", w, c, c / w, l / (c > 0 ? c : 0.01)
  printf "bench-convert: peak RSS %.1f MB (target <= 64 MB), output %.0f MB\n", kb / 1024, o / 1048576
  printf "bench-convert: CPU %.2f s user + %.2f s system on %d CPUs (load average %s)\n", u, y, n, la
}'
