# examples/hsa_vadd on simgpu: N iterations -> 2N dispatches, N AND and N OR
# barriers, 4N copies, verified; also with copies through blit kernels.
. "$TOP/tests/simgpu/env.sh"
"$B/examples/hsa_vadd" -n 10
HSA_ENABLE_SDMA=0 "$B/examples/hsa_vadd" -n 2
