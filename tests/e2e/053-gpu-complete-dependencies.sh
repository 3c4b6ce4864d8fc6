# A queue that waits on another's work (a barrier whose dependency is a
# dispatch's signal, as a HIP stream waiting on another's event) must not
# wait for the tracer.  The dispatch's signal is raised by one while the
# tracer has not read its times, and nothing in the application waits on
# it: left alone, only the queue's waiter thread would release it, 200 us to
# 1 ms after the hardware (200 such waits took 9x as long traced).
#
# By default the barrier is handed to the GPU as an AMD barrier-value
# packet waiting for the raised value to drop below 2 (gpu_deps.c): the
# simulated GPU processes one barrier-value packet per barrier, and each
# barrier still ends after the dispatch it depends on.  The trace keeps the
# barriers as the program wrote them (op:and, dep1 the dispatch's signal).
# With RTG_GPU_DEPS=0 the tracer arms a handler on each raised dependency
# instead, and the runtime's async-events thread completes the dispatches
# on the hardware's decrement (the threshold leaves room for a loaded
# machine, as in 050).
. "$TOP/tests/e2e/02-tracer.inc"
# end_after_dep FILE: barriers that end no earlier than their dependency
end_after_dep() {
  awk 'FNR == NR { if (/ dispatch .* start:/) { s = $0; sub(/.* signal:/, "", s); sub(/ .*/, "", s)
                     e = $0; sub(/.* stop:/, "", e); sub(/ .*/, "", e); end[s] = e }; next }
       / barrier .* start:/ { d = $0; sub(/.* dep1:/, "", d); sub(/ .*/, "", d)
                     b = $0; sub(/.* stop:/, "", b); sub(/ .*/, "", b)
                     n++; if ((d in end) && b + 0 >= end[d] + 0) ok++ }
       END { print "barriers ending after their dependency: " ok + 0 " of " n + 0 }' "$1" "$1"
}
# (1 ms kernels: each dispatch is still running when its barrier is
# submitted, even on a loaded host, so every barrier waits on a raised
# signal)
SIMGPU_LOG=1 SIMGPU_KERNEL_NS=1000000 traced "$PROGS/tp_stretch" dep 100 >out 2>log
f=$(trace_of)
echo "barrier-value packets the GPU processed: $(grep -c 'barrier-value done' log)"
end_after_dep "$f"
echo "barrier records: $(grep ' barrier .* start:' "$f" | grep -c ' dep1:[1-9].* op:and')"
summary "$f" | sed 's/ buffer_waits.*//'
rm -f rtg_trace.txt.*
echo "-- RTG_GPU_DEPS=0"
RTG_GPU_DEPS=0 SIMGPU_LOG=1 SIMGPU_KERNEL_NS=20000 traced "$PROGS/tp_stretch" dep 100 >out 2>log
f=$(trace_of)
echo "barrier-value packets the GPU processed: $(grep -c 'barrier-value done' log)"
end_after_dep "$f"
ht=$(sed -n 's/^handler_tid //p' out)
completed_by "$f" $ht "the async-events thread"
