# --summary and --stats count on a thread of their own (shared/feed.c:
# the dispatching thread hands each event's names, times and time-model
# part over in order): the same bytes as counting on the dispatching
# thread, which a run pinned to one CPU does.  24 ranks of 20000 records
# (more records than the blocks in flight hold, so the dispatching thread
# waits for blocks back), the test traces, and a trace of polled HSA calls
# (counted as two adds).  Each with -o (the JSON timeline beside it) too.
cc -O2 -I"$TOP/include" -I"$TOP/src/common" -o gen "$TOP/scripts/bench-convert-gen.c" "$TOP/src/common/record.c" || exit 1
mkdir r && ./gen ranks r 24 3 20000 || exit 1
conv() { # DIR PIN INPUTS...: --summary and --stats, pinned to CPU 0 where PIN is 1
  d=$1 pin=$2
  shift 2
  mkdir "$d"
  if [ "$pin" = 1 ]; then
    (cd "$d" && taskset -c 0 "$B/rtg-convert" -q --summary --stats=st -o t.json "$@" > summary.txt)
  else
    (cd "$d" && "$B/rtg-convert" -q --summary --stats=st -o t.json "$@" > summary.txt)
  fi
  echo "$d: exit $?"
}
same() { diff -r "$1" "$2" > /dev/null && echo "$3: the same bytes, $(find "$1" -type f | wc -l) files" || echo "$3: DIFFERENT"; }
conv ranks.w 0 "$PWD"/r/*
conv ranks.1 1 "$PWD"/r/*
same ranks.w ranks.1 "24 ranks"
grep -c '^  *[0-9.]*%' ranks.w/summary.txt
n=0
for t in "$TOP"/tests/data/convert/small.txt "$TOP"/tests/data/convert/gen.txt \
  "$TOP"/tests/data/convert/real/*.txt "$TOP"/tests/data/fuzz/convert/seed-hsa-polls.txt; do
  conv t$n.w 0 "$t" > /dev/null
  conv t$n.1 1 "$t" > /dev/null
  same t$n.w t$n.1 "$(basename "$t")"
  n=$((n + 1))
done
grep 'hsa_signal_load_relaxed' t$((n - 1)).w/st/hsa_api_stats.csv | cut -d, -f1,2
