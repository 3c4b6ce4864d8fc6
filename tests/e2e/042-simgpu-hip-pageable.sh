# simgpu: host memory the GPU reaches at an address of its own. hipMemcpy of
# 8 MiB of pageable memory both ways (ROCclr pins it, and ROCR's built-in
# thunk maps it away from its CPU address: the SDMA engine translates), then
# copies and a memset through the device pointer of hipHostRegister'ed
# memory (ROCclr's blit kernels on a translated address; HIP 5.2 also needs
# the two addresses to differ to unregister it). Every byte is checked.
. "$TOP/tests/simgpu/env.sh"
"$B/progs/tp_hip_pageable"
