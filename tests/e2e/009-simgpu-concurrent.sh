# simgpu: kernels on different queues and GPUs run at the same time.
. "$TOP/tests/simgpu/env.sh"
SIMGPU_GPUS=2 SIMGPU_KERNEL_NS=200000000 "$SIMGPU/sg_concurrent"
