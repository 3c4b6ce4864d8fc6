# simgpu: the same copies with HSA_ENABLE_SDMA=0: all go through ROCR's blit
# kernels, emulated on the CPU.
. "$TOP/tests/simgpu/env.sh"
HSA_ENABLE_SDMA=0 "$SIMGPU/sg_copy"
