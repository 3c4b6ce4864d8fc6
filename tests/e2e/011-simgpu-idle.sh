# simgpu: an idle program with queues on two GPUs costs under 5% of a core.
. "$TOP/tests/simgpu/env.sh"
SIMGPU_GPUS=2 "$SIMGPU/sg_idle" 2
