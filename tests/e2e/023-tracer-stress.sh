# 4 threads x 1500 packets through 64-slot queues (every tenth a barrier):
# exact counts, no lost record, and no "overflow buffer not empty" assert
# of ROCR 5.2.3's intercept queue (the tracer throttles).  All packets of a
# thread complete one shared signal: each still gets its own times (the
# simulated duration, in queue order), and the program's waits still work.
. "$TOP/tests/e2e/02-tracer.inc"
SIMGPU_KERNEL_NS=2000 traced "$SIMGPU/sg_stress" 4 1500
f=$(trace_of)
kinds "$f"
durations "$f" dispatch
durations "$f" barrier
echo "stop before start: $(bad_times "$f")"
echo "out of queue order: $(out_of_order "$f")"
summary "$f"
