# A forked child writes its own rtg_trace.txt.<childpid>; the parent's
# records stay in the parent's file.
. "$TOP/tests/e2e/02-tracer.inc"
traced "$PROGS/tp_fork" 5
ls rtg_trace.txt.* | wc -l
for f in rtg_trace.txt.*; do
  pid=${f##*.}
  head -n 1 "$f" | grep -q "^RTG: pid:$pid " && echo "header pid ok"
  summary "$f" | sed 's/ hsa_calls.*//'
done | sort
