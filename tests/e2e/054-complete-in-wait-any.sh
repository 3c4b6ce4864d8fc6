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
echo "wait_any calls returning the dispatch's index: $(grep -c '^HSA: .* hsa_amd_signal_wait_any (.*) ret=1 ' "$f")"
completed_by "$f" $pid "the waiting thread"
