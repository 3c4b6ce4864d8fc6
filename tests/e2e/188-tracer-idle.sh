# An idle traced program with two queues per GPU (sg_idle) costs under 5%
# of a core, as it does untraced (011): the tracer's per-queue waiters park
# when nothing is in flight instead of polling, on every runtime release.
. "$TOP/tests/e2e/02-tracer.inc"
SIMGPU_GPUS=2 traced "$SIMGPU/sg_idle" 2
echo "exit status $?"
echo "queue records: $(grep -c '^RTG: .* queue ' "$(trace_of)")"
