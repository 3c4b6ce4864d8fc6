# simgpu: H2D, D2D, D2H async copies and a fill round-trip the data (SDMA
# queues and ROCR's blit kernels), on two GPUs.
. "$TOP/tests/simgpu/env.sh"
SIMGPU_GPUS=2 "$SIMGPU/sg_copy"
