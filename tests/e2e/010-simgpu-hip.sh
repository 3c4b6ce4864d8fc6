# simgpu: the real HIP runtime (hipcc program): hipMalloc, hipMemcpy, kernel
# launches on two streams, hipMemset(Async) through the emulated ROCclr fill
# kernels, D2D copies, and hipEventElapsedTime == SIMGPU_KERNEL_NS.
. "$TOP/tests/simgpu/env.sh"
"$SIMGPU/sg_hip"
echo "-- SIMGPU_KERNEL_NS=50000"
SIMGPU_KERNEL_NS=50000 "$SIMGPU/sg_hip" | grep Elapsed
