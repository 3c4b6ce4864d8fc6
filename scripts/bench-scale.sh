#!/bin/sh
# rtg-convert on a job of many ranks: generates RANKS rank files (EVENTS
# records each, HOSTS hosts whose boot clocks differ, with clock pairs) and
# converts them two ways, printing for each the wall time, peak RSS, CPU
# time and the most files it held open at once:
#   - all at once: rtg-convert --summary -o all.json FILES...
#   - per node: rtg-convert --part on NODES "nodes" (the hosts dealt over
#     them), then rtg-convert --merge --summary -o merged.json PARTS...
#   - the merge of --summary alone (rtg-convert --merge --summary PARTS...),
#     which reads the parts' state where they hold one (else every record),
#     with the bytes it read
# and whether they give the same bytes (JSON and --summary).
#   scripts/bench-scale.sh [RANKS [EVENTS [HOSTS [NODES]]]]   (1000 10000 8 4;
#   BENCH_QUICK=1: 100 2000 8 4)
# Each step's line also gives the main thread's CPU time (the reader's
# caller, RTG_READER_STATS=1: the serial part, which sets the pace on many
# cores).
# B: the build directory, or the rtg-convert binary itself (a prebuilt
# one); BASE: another build directory or binary, measured the same way on
# the same files right after (its lines say "base"), to compare on one
# machine; GEN: a prebuilt generator (scripts/bench-convert-gen.c), for a
# machine without a compiler or without librtgcommon.a beside rtg-convert.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
# binary PATH: the rtg-convert of a build directory, or PATH itself
binary() {
  if [ -f "$1" ]; then
    echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
  else
    echo "$(cd "$1" && pwd)/rtg-convert"
  fi
}
B=${B:-$TOP/build}
C=$(binary "$B")
B=$(dirname "$C")
CB=""
if [ -n "${BASE:-}" ]; then
  CB=$(binary "$BASE")
  [ -x "$CB" ] || { echo "bench-scale: $CB: not an rtg-convert (BASE=)" >&2; exit 1; }
fi
if [ -n "${BENCH_QUICK:-}" ]; then
  RANKS=${1:-100} EVENTS=${2:-2000}
else
  RANKS=${1:-1000} EVENTS=${2:-10000}
fi
HOSTS=${3:-8} NODES=${4:-4}
[ -x "$C" ] || { echo "bench-scale: $C: build first (make), or B=path/to/rtg-convert" >&2; exit 1; }
DIR=$(mktemp -d "${TMPDIR:-/tmp}/rtg-bench-scale.XXXXXX")
trap 'rm -rf "$DIR"' EXIT INT TERM
# (GEN=path: a generator built before, for a machine without a compiler)
if [ -n "${GEN:-}" ]; then
  cp "$GEN" "$DIR/gen"
elif [ -f "$B/librtgcommon.a" ]; then
  cc -O2 -I"$TOP/include" -o "$DIR/gen" "$TOP/scripts/bench-convert-gen.c" "$B/librtgcommon.a"
else
  cc -O2 -I"$TOP/include" -I"$TOP/src/common" -o "$DIR/gen" "$TOP/scripts/bench-convert-gen.c" \
    "$TOP/src/common/record.c"
fi
mkdir "$DIR/r"
"$DIR/gen" ranks "$DIR/r" "$RANKS" "$HOSTS" "$EVENTS"
cd "$DIR"
# the files of node n: those of the hosts h with h % NODES == n, in order
n=0
while [ $n -lt "$NODES" ]; do
  h=$n
  : > "list.$n"
  while [ $h -lt "$HOSTS" ]; do
    ls "r/" | grep "^rtg_trace\.txt\.node$h\." | sort -t. -k4 -n | sed 's|^|r/|' >> "list.$n"
    h=$((h + NODES))
  done
  n=$((n + 1))
done
cat list.* > list.all
bytes=$(cat r/* | wc -c)

# run CMD...: one run under /usr/bin/time, its open files sampled every
# 10 ms (those it opened: less the ones it was started with); prints
# "wall_s rss_kb user_s sys_s max_files main_ms"
run() {
  rm -f pid fd0 rs.txt
  t0=$(date +%s.%N)
  RTG_READER_STATS=1 /usr/bin/time -f '%M %U %S' -o time.txt sh -c 'k=0; for f in /proc/$$/fd/*; do k=$((k + 1)); done
    echo $k > fd0; echo $$ > pid; exec "$@"' sh "$@" > /dev/null 2> rs.txt &
  bg=$!
  max=0
  while kill -0 $bg 2>/dev/null; do
    if [ -s pid ]; then
      k=$(ls "/proc/$(cat pid)/fd" 2>/dev/null | wc -l)
      [ "$k" -gt "$max" ] && max=$k
    fi
    sleep 0.01
  done
  wait $bg
  t1=$(date +%s.%N)
  # the main thread's CPU: the caller's, summed over the readers
  ms=$(sed -n 's/.*caller: CPU \([0-9.]*\) ms.*/\1/p' rs.txt | awk '{ s += $1 } END { printf "%.0f", s }')
  echo "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') $(cat time.txt) $((max - $(cat fd0))) $ms"
}

same() { cmp -s "$1" "$2" && echo identical || echo DIFFERENT; }

# measure LABEL CONVERT: the three steps with one rtg-convert
measure() {
  label=$1 C=$2
  rm -f all.json all.sum merged.json merged.sum state.sum node*.part
  read -r a_s a_kb a_u a_y a_fd a_ms <<EOT
$(run "$C" -q --summary -o all.json $(cat list.all))
EOT
  "$C" -q --summary -o /dev/null $(cat list.all) > all.sum
  p_s=0 p_max=0 p_kb=0 p_u=0 p_fd=0 n=0
  while [ $n -lt "$NODES" ]; do
    read -r s kb u y fd ms <<EOT
$(run "$C" -q --part "node$n.part" $(cat "list.$n"))
EOT
    p_s=$(awk -v a="$p_s" -v b="$s" 'BEGIN { print a + b }')
    p_max=$(awk -v a="$p_max" -v b="$s" 'BEGIN { print (b > a) ? b : a }')
    p_u=$(awk -v a="$p_u" -v b="$u" -v c="$y" 'BEGIN { print a + b + c }')
    [ "$kb" -gt "$p_kb" ] && p_kb=$kb
    [ "$fd" -gt "$p_fd" ] && p_fd=$fd
    n=$((n + 1))
  done
  read -r m_s m_kb m_u m_y m_fd m_ms <<EOT
$(run "$C" -q --merge --summary -o merged.json node*.part)
EOT
  "$C" -q --merge --summary -o /dev/null node*.part > merged.sum
  read -r s_s s_kb s_u s_y s_fd s_ms <<EOT
$(run "$C" -q --merge --summary node*.part)
EOT
  "$C" --merge --summary node*.part > state.sum
  s_read=$("$C" -v --merge --summary node*.part 2>&1 > /dev/null |
    sed -n 's/.* events, \([0-9]*\) bytes read in place of .*/\1/p')
  printf 'bench-scale%s: %-26s %7s s, peak RSS %6.1f MB, CPU %6.2f s (%.1fx the wall), main thread %.2f s, max open files %s\n' \
    "$label" "all at once (--summary -o):" "$a_s" "$(awk -v k="$a_kb" 'BEGIN { print k / 1024 }')" \
    "$(awk -v a="$a_u" -v b="$a_y" 'BEGIN { print a + b }')" \
    "$(awk -v a="$a_u" -v b="$a_y" -v w="$a_s" 'BEGIN { print (a + b) / (w > 0 ? w : 1) }')" \
    "$(awk -v m="$a_ms" 'BEGIN { print m / 1000 }')" "$a_fd"
  printf 'bench-scale%s: %-26s %7s s, peak RSS %6.1f MB, CPU %6.2f s, max open files %s (slowest node %s s)\n' \
    "$label" "--part, $NODES nodes one by one:" "$p_s" "$(awk -v k="$p_kb" 'BEGIN { print k / 1024 }')" "$p_u" "$p_fd" "$p_max"
  printf 'bench-scale%s: %-26s %7s s, peak RSS %6.1f MB, CPU %6.2f s (%.1fx the wall), main thread %.2f s, max open files %s, parts %s MB\n' \
    "$label" "--merge (--summary -o):" "$m_s" "$(awk -v k="$m_kb" 'BEGIN { print k / 1024 }')" \
    "$(awk -v a="$m_u" -v b="$m_y" 'BEGIN { print a + b }')" \
    "$(awk -v a="$m_u" -v b="$m_y" -v w="$m_s" 'BEGIN { print (a + b) / (w > 0 ? w : 1) }')" \
    "$(awk -v m="$m_ms" 'BEGIN { print m / 1000 }')" "$m_fd" "$(($(cat node*.part | wc -c) / 1048576))"
  if [ -n "$s_read" ]; then
    s_what="the parts' state, $(awk -v b="$s_read" 'BEGIN { printf "%.1f", b / 1048576 }') MB read"
  else
    s_what="every record, $(($(cat node*.part | wc -c) / 1048576)) MB read"
  fi
  printf 'bench-scale%s: %-26s %7s s, peak RSS %6.1f MB, CPU %6.2f s, max open files %s, %s\n' \
    "$label" "--merge --summary:" "$s_s" "$(awk -v k="$s_kb" 'BEGIN { print k / 1024 }')" \
    "$(awk -v a="$s_u" -v b="$s_y" 'BEGIN { print a + b }')" "$s_fd" "$s_what"
  echo "bench-scale$label: part+merge vs all at once: JSON $(same all.json merged.json) ($(wc -c < all.json) bytes), --summary $(same all.sum merged.sum), --merge --summary $(same all.sum state.sum)"
}

cat r/* > /dev/null # warm the page cache
echo "bench-scale: $RANKS rank files on $HOSTS hosts, $EVENTS records each ($((bytes / 1048576)) MB); $NODES nodes; $(nproc) CPUs, load average $(cut -d' ' -f1 /proc/loadavg)"
measure "" "$C"
if [ -n "$CB" ]; then
  mv all.json head.json
  mv all.sum head.sum
  measure " base" "$CB"
  echo "bench-scale: head vs base: JSON $(same head.json all.json), --summary $(same head.sum all.sum)"
fi
