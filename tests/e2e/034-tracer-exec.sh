# exec loses nothing: N dispatches (completed, or still in flight) and then
# exec at once; the file of the image before exec holds all N and its
# summary; an exec'ed image that runs HSA writes <file>.exec1.<pid> (same
# pid, still last);
# a failed exec changes nothing (one summary, at the real exit).
. "$TOP/tests/e2e/02-tracer.inc"
for target in self true fail; do
  for mode in wait nowait; do
    rm -f rtg_trace.txt.*
    traced "$PROGS/tp_exec" 40 $mode $target
    echo "-- $target $mode: exit status $?"
    pid=$(ls rtg_trace.txt.* | sed -n 's/^rtg_trace\.txt\.\([0-9]*\)$/\1/p')
    for f in $(ls rtg_trace.txt.* | sort); do
      echo "$(echo "$f" | sed "s/$pid\$/PID/") header pid ok: $(head -n 1 "$f" | grep -c "^RTG: pid:$pid ")"
      kinds "$f" | grep -E '^(dispatch|rtg_summary) '
      summary "$f" | sed 's/ hsa_calls.*//'
    done
  done
done
echo "-- fork, the child ends with _exit()"
rm -f rtg_trace.txt.*
RTG_HSA_API_FILTER=hsa_system_get_info traced "$PROGS/tp_fork" 5 _exit
for f in rtg_trace.txt.*; do
  summary "$f" | sed 's/ hip_calls.*//'
done | sort
