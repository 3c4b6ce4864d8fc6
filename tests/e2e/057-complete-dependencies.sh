# A queue that waits on another's work (a barrier whose dependency is a
# dispatch's signal, as a HIP stream waiting on another's event) must not
# wait for the tracer: nothing in the application waits on that signal, so
# left alone only the queue's waiter thread would complete the dispatch,
# 200 us to 1 ms after the hardware (200 such waits took 9x as long traced).
# The tracer sees the barrier's dependencies as it is submitted and arms a
# handler on each raised one, so the runtime's async-events thread
# completes the dispatch on the hardware's decrement. (The threshold leaves
# room for a loaded machine, as in 053.)
. "$TOP/tests/e2e/02-tracer.inc"
SIMGPU_KERNEL_NS=20000 traced "$PROGS/tp_stretch" dep 100 >out
f=$(trace_of)
ht=$(sed -n 's/^handler_tid //p' out)
completed_by "$f" $ht "the async-events thread"
echo "barriers $(grep -c '^HSA: .* barrier .* start:' "$f")"
