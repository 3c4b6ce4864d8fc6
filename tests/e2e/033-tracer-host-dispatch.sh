# RTG_HSA_HOST_DISPATCH=1: a host record per dispatch and barrier as it is
# enqueued (tick, grid, workgroup), matching the GPU records by id.
. "$TOP/tests/e2e/02-tracer.inc"
SIMGPU_KERNEL_NS=3000 RTG_HSA_HOST_DISPATCH=1 traced "$SIMGPU/sg_barrier" >/dev/null
f=$(trace_of)
kinds "$f"
a=$(grep ' dispatch \| barrier ' "$f" | grep -v ' start:' | sed 's/.* id:\([0-9]*\).*/\1/' | sort -n | tr '\n' ' ')
b=$(grep ' dispatch \| barrier ' "$f" | grep ' start:' | sed 's/.* id:\([0-9]*\).*/\1/' | sort -n | tr '\n' ' ')
[ "$a" = "$b" ] && echo "host and GPU records have the same ids"
