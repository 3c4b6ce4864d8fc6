# Packets of two queues share one completion signal and are in flight on
# it together: every dispatch record has its own times (the simulated
# duration, in queue order), the program's wait for 0 works, and the times
# it reads from its signal are one kernel's, as without the tracer.
. "$TOP/tests/e2e/02-tracer.inc"
export SIMGPU_KERNEL_NS=3000
"$PROGS/tp_shared" 300 >plain.out
traced "$PROGS/tp_shared" 300 >traced.out
cmp plain.out traced.out && echo "application output unchanged"
cat traced.out
f=$(trace_of)
kinds "$f" | grep -E '^(dispatch|rtg_summary) '
durations "$f" dispatch
echo "out of queue order: $(out_of_order "$f")"
summary "$f"
