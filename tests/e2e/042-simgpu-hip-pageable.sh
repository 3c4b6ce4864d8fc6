# simgpu: host memory the GPU reaches through a registration. hipMemcpy of
# 8 MiB of pageable memory both ways (ROCclr pins it; the thunk front end
# maps it away from its CPU address, and the SDMA engine translates; ROCR's
# built-in thunk registers it through KFD's SVM API at its CPU address),
# then copies and a memset through the device pointer of hipHostRegister'ed
# memory (ROCclr's blit kernels, on a translated address where it moved;
# HIP 5.2 also needs the two addresses to differ to unregister it). Every
# byte is checked.
. "$TOP/tests/simgpu/env.sh"
"$B/progs/tp_hip_pageable"
