# simgpu: a code object compiled from OpenCL C (clang-14, gfx90a) loads and
# its dispatch takes exactly SIMGPU_KERNEL_NS (default 20000), or its
# SIMGPU_KERNEL_TIMES entry, or what the dispatch hook says.
. "$TOP/tests/simgpu/env.sh"
"$SIMGPU/sg_dispatch" "$SIMGPU/kernels.hsaco"
echo "-- SIMGPU_KERNEL_NS=35000"
SIMGPU_KERNEL_NS=35000 "$SIMGPU/sg_dispatch" "$SIMGPU/kernels.hsaco" | grep duration=
echo "-- SIMGPU_KERNEL_TIMES, 2 GPUs"
SIMGPU_GPUS=2 SIMGPU_KERNEL_TIMES=scale=1,vadd=7000 "$SIMGPU/sg_dispatch" "$SIMGPU/kernels.hsaco" | grep duration=
