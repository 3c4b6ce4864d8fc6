# No thread hop at completion through hsa_amd_signal_wait_any either: a
# program that waits for each dispatch with wait_any (its signal beside one
# that never fires) gets its ops completed by its own thread, inside that
# wait.  Without the hook the waiter thread completes them all (0 here); the
# threshold leaves room for a loaded machine, as in 053.  Every dispatch is
# recorded once, and each wait returns the dispatch's own index.
. "$TOP/tests/e2e/02-tracer.inc"
SIMGPU_KERNEL_NS=20000 RTG_HSA_API_FILTER=hsa_amd_signal_wait_any traced "$PROGS/tp_stretch" waitany 100 >out
f=$(trace_of)
pid=${f##*.}
total=$(grep -c '^HSA: .* dispatch .* start:' "$f")
mine=$(grep -c "^HSA: pid:$pid tid:$pid dispatch .* start:" "$f")
echo "dispatches $total, completed by the waiting thread: $([ "$mine" -ge 10 ] && echo "10 or more" || echo "only $mine")"
echo "distinct ids $(grep '^HSA: .* dispatch .* start:' "$f" | sed 's/.* id:\([0-9]*\).*/\1/' | sort -u | wc -l)"
echo "wait_any calls returning the dispatch's index: $(grep -c '^HSA: .* hsa_amd_signal_wait_any (.*) ret=1 ' "$f")"
summary "$f" | sed 's/ buffer_waits.*//'
