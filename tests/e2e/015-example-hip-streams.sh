# examples/hip_streams on simgpu, one and two GPUs.
. "$TOP/tests/simgpu/env.sh"
"$B/examples/hip_streams" -s 3 -n 2
SIMGPU_GPUS=2 "$B/examples/hip_streams" -s 2 -n 1
