# 8 threads, each with its own small queue, 400 packets each: every packet
# is recorded once, from 8 queues, with no loss.
. "$TOP/tests/e2e/02-tracer.inc"
SIMGPU_KERNEL_NS=1000 traced "$SIMGPU/sg_stress" 8 400
f=$(trace_of)
kinds "$f"
grep ' dispatch ' "$f" | sed 's/.* queue:\([0-9]*\) .*/\1/' | sort -n | uniq -c | awk '{print "queue", $2, $1}'
summary "$f"
