# examples/hsa_idle on simgpu: idle after hsa_init.
. "$TOP/tests/simgpu/env.sh"
"$B/examples/hsa_idle" 0.5
