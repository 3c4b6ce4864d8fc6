# Async copies on two simulated GPUs: one record per copy with direction,
# bytes and agents; start <= stop; the program's data and time checks pass.
. "$TOP/tests/e2e/02-tracer.inc"
SIMGPU_GPUS=2 "$SIMGPU/sg_copy" >plain.out
SIMGPU_GPUS=2 traced "$SIMGPU/sg_copy" >traced.out
cmp plain.out traced.out && echo "application output unchanged"
f=$(trace_of)
kinds "$f"
grep ' copy ' "$f" | sed 's/.* bytes:\([0-9]*\) kind:\([A-Za-z]*\) src_agent:\([0-9]*\) dst_agent:\([0-9]*\).*/\2 \1 bytes \3->\4/' | sort | uniq -c
echo "stop before start: $(bad_times "$f")"
echo "-- RTG_PROFILE_COPY=0"
rm -f rtg_trace.txt.*
SIMGPU_GPUS=2 RTG_PROFILE_COPY=0 traced "$SIMGPU/sg_copy" | cmp - plain.out && echo "application output unchanged"
kinds "$(trace_of)"
