# simgpu: 4 threads x 3000 packets through 64-slot queues (wrapping, barriers).
. "$TOP/tests/simgpu/env.sh"
SIMGPU_KERNEL_NS=2000 "$SIMGPU/sg_stress" 4 3000
