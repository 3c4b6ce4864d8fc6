# simgpu: rocminfo finds the driver loaded (/sys/module/amdgpu/initstate, or
# amdgpu in /proc/modules through libkmod on ROCm 5.2), opens /dev/kfd and
# lists the CPU and GPU agents, with one and two GPUs.
. "$TOP/tests/simgpu/env.sh"
show() {
  sed 's/\x1b\[[0-9;]*m//g' | grep -E '^ROCk|^  (Name|Marketing Name|Device Type|BDFID):' |
    sed 's/  */ /g; s/ *$//'
}
rocminfo >out
echo "status $?"
show <out
echo "-- SIMGPU_GPUS=2"
SIMGPU_GPUS=2 rocminfo | show
