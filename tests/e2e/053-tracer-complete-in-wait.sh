# No thread hop at completion: a program that waits for each dispatch
# (tp_stretch wait) gets its ops completed by its own thread, inside its
# hsa_signal_wait_scacquire: dispatch records name the main thread.  The
# queue's waiter thread completes an op when its poll sees the hardware's
# decrement first, which on a loaded machine (the waiting thread off its
# core) is up to half of them: 10 of 100 shows the mechanism works.  Every
# dispatch is recorded once, and the program's own waits see completion.
. "$TOP/tests/e2e/02-tracer.inc"
SIMGPU_KERNEL_NS=20000 traced "$PROGS/tp_stretch" wait 100 >out
f=$(trace_of)
pid=${f##*.}
total=$(grep -c '^HSA: .* dispatch .* start:' "$f")
mine=$(grep -c "^HSA: pid:$pid tid:$pid dispatch .* start:" "$f")
echo "dispatches $total, completed by the waiting thread: $([ "$mine" -ge 10 ] && echo "10 or more" || echo "only $mine")"
echo "distinct ids $(grep '^HSA: .* dispatch .* start:' "$f" | sed 's/.* id:\([0-9]*\).*/\1/' | sort -u | wc -l)"
summary "$f" | sed 's/ buffer_waits.*//'
