# Four long kernels on four queues of two simulated GPUs still overlap with
# the tracer (no serialization), each with its own queue and agent index.
. "$TOP/tests/e2e/02-tracer.inc"
SIMGPU_GPUS=2 SIMGPU_KERNEL_NS=200000000 traced "$SIMGPU/sg_concurrent"
f=$(trace_of)
kinds "$f"
grep ' dispatch ' "$f" | sed 's/.* queue:\([0-9]*\) agent:\([0-9]*\).*/queue \1 agent \2/' | sort
grep '^RTG: .* agent ' "$f" | sed 's/.* index:\([0-9]*\) type:\([a-z]*\).*/agent \1 \2/'
durations "$f" dispatch
