# No thread hop at completion through hsa_amd_signal_wait_any either: a
# program that waits for each dispatch with wait_any (its signal beside one
# that never fires) gets its ops completed by its own thread, inside that
# wait.  Without the hook the waiter thread completes them all (0 here); the
# threshold leaves room for a loaded machine, as in 050.  Every dispatch is
# recorded once, and each wait returns the dispatch's own index.
. "$TOP/tests/e2e/02-tracer.inc"
SIMGPU_KERNEL_NS=20000 RTG_HSA_API_FILTER=hsa_amd_signal_wait_any traced "$PROGS/tp_stretch" waitany 100 >out
f=$(trace_of)
pid=${f##*.}
# (a call that repeats the one before it is counted in that one's polls:)
echo "wait_any calls returning the dispatch's index: $(grep '^HSA: .* hsa_amd_signal_wait_any (.*) ret=1 ' "$f" |
  awk '{ n = 1; for (i = 1; i <= NF; i++) if ($i ~ /^polls:/) n = substr($i, 7); s += n } END { print s + 0 }')"
completed_by "$f" $pid "the waiting thread"
