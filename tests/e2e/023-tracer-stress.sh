# 4 threads x 1500 packets through 64-slot queues (every tenth a barrier):
# exact counts, no lost record, and no "overflow buffer not empty" assert
# of ROCR 5.2.3's intercept queue (the tracer throttles).
. "$TOP/tests/e2e/02-tracer.inc"
SIMGPU_KERNEL_NS=2000 traced "$SIMGPU/sg_stress" 4 1500
f=$(trace_of)
kinds "$f"
# all packets of a thread complete one shared signal, so the times read
# from it are those of whichever packet completed last: no durations here
# (nor start <= stop: a pair can be read while the next packet rewrites it)
summary "$f"
