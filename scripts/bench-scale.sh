#!/bin/sh
# rtg-convert on a job of many ranks: generates RANKS rank files (EVENTS
# records each, HOSTS hosts whose boot clocks differ, with clock pairs) and
# converts them two ways, printing for each the wall time, peak RSS, CPU
# time and the most files it held open at once:
#   - all at once: rtg-convert --summary -o all.json FILES...
#   - per node: rtg-convert --part on NODES "nodes" (the hosts dealt over
#     them), then rtg-convert --merge --summary -o merged.json PARTS...
# and whether the two give the same bytes (JSON and --summary).
#   scripts/bench-scale.sh [RANKS [EVENTS [HOSTS [NODES]]]]   (1000 10000 8 4;
#   BENCH_QUICK=1: 100 2000 8 4)
# B: the build directory, or the rtg-convert binary itself (a prebuilt
# one); GEN: a prebuilt generator (scripts/bench-convert-gen.c), for a
# machine without a compiler or without librtgcommon.a beside rtg-convert.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
B=${B:-$TOP/build}
if [ -f "$B" ]; then
  C=$(cd "$(dirname "$B")" && pwd)/$(basename "$B")
  B=$(dirname "$C")
else
  B=$(cd "$B" && pwd)
  C=$B/rtg-convert
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
# "wall_s rss_kb user_s sys_s max_files"
run() {
  rm -f pid fd0
  t0=$(date +%s.%N)
  /usr/bin/time -f '%M %U %S' -o time.txt sh -c 'k=0; for f in /proc/$$/fd/*; do k=$((k + 1)); done
    echo $k > fd0; echo $$ > pid; exec "$@"' sh "$@" > /dev/null &
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
  echo "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') $(cat time.txt) $((max - $(cat fd0)))"
}

cat r/* > /dev/null # warm the page cache
read -r a_s a_kb a_u a_y a_fd <<EOT
$(run "$C" -q --summary -o all.json $(cat list.all))
EOT
"$C" -q --summary -o /dev/null $(cat list.all) > all.sum
p_s=0 p_max=0 p_kb=0 p_u=0 p_y=0 p_fd=0 n=0
while [ $n -lt "$NODES" ]; do
  read -r s kb u y fd <<EOT
$(run "$C" -q --part "node$n.part" $(cat "list.$n"))
EOT
  p_s=$(awk -v a="$p_s" -v b="$s" 'BEGIN { print a + b }')
  p_max=$(awk -v a="$p_max" -v b="$s" 'BEGIN { print (b > a) ? b : a }')
  p_u=$(awk -v a="$p_u" -v b="$u" -v c="$y" 'BEGIN { print a + b + c }')
  [ "$kb" -gt "$p_kb" ] && p_kb=$kb
  [ "$fd" -gt "$p_fd" ] && p_fd=$fd
  n=$((n + 1))
done
read -r m_s m_kb m_u m_y m_fd <<EOT
$(run "$C" -q --merge --summary -o merged.json node*.part)
EOT
"$C" -q --merge --summary -o /dev/null node*.part > merged.sum
same() { cmp -s "$1" "$2" && echo identical || echo DIFFERENT; }
echo "bench-scale: $RANKS rank files on $HOSTS hosts, $EVENTS records each ($((bytes / 1048576)) MB); $NODES nodes; $(nproc) CPUs, load average $(cut -d' ' -f1 /proc/loadavg)"
printf 'bench-scale: %-26s %7s s, peak RSS %6.1f MB, CPU %6.2f s (%.1fx the wall), max open files %s\n' \
  "all at once (--summary -o):" "$a_s" "$(awk -v k="$a_kb" 'BEGIN { print k / 1024 }')" \
  "$(awk -v a="$a_u" -v b="$a_y" 'BEGIN { print a + b }')" \
  "$(awk -v a="$a_u" -v b="$a_y" -v w="$a_s" 'BEGIN { print (a + b) / (w > 0 ? w : 1) }')" "$a_fd"
printf 'bench-scale: %-26s %7s s, peak RSS %6.1f MB, CPU %6.2f s, max open files %s (slowest node %s s)\n' \
  "--part, $NODES nodes one by one:" "$p_s" "$(awk -v k="$p_kb" 'BEGIN { print k / 1024 }')" "$p_u" "$p_fd" "$p_max"
printf 'bench-scale: %-26s %7s s, peak RSS %6.1f MB, CPU %6.2f s (%.1fx the wall), max open files %s\n' \
  "--merge (--summary -o):" "$m_s" "$(awk -v k="$m_kb" 'BEGIN { print k / 1024 }')" \
  "$(awk -v a="$m_u" -v b="$m_y" 'BEGIN { print a + b }')" \
  "$(awk -v a="$m_u" -v b="$m_y" -v w="$m_s" 'BEGIN { print (a + b) / (w > 0 ? w : 1) }')" "$m_fd"
echo "bench-scale: part+merge vs all at once: JSON $(same all.json merged.json) ($(wc -c < all.json) bytes), --summary $(same all.sum merged.sum)"
