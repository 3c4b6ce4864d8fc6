# A forked child writes its own rtg_trace.txt.<childpid>; the parent's
# records stay in the parent's file.  The tracer starts no thread in a
# child of few records ("child exit 0": its threads besides its own) and
# its writer in one whose records fill a buffer chunk (20000 calls: one
# thread), which then loses none of them.
. "$TOP/tests/e2e/02-tracer.inc"
for mode in exit many; do
  echo "-- child: $mode"
  rm -f rtg_trace.txt.*
  RTG_HSA_API_FILTER=hsa_system_get_info traced "$PROGS/tp_fork" 5 $mode
  ls rtg_trace.txt.* | wc -l
  for f in rtg_trace.txt.*; do
    pid=${f##*.}
    head -n 1 "$f" | grep -q "^RTG: pid:$pid " && echo "header pid ok"
    summary "$f" | sed 's/ hip_calls.*//'
    echo "hsa_system_get_info records: $(grep -c ' hsa_system_get_info ' "$f")"
  done | sort
done
