# simgpu: ROCm SMI's device enumeration (DRM cards in /sys/class/drm whose
# PCI address and unique_id match a KFD topology node), with one and two
# GPUs: what rocBLAS needs to find the device of a HIP PCI address. Skipped
# where librocm_smi64 is not installed.
. "$TOP/tests/simgpu/env.sh"
"$SIMGPU/sg_smi" || exit
echo "-- SIMGPU_GPUS=2"
SIMGPU_GPUS=2 "$SIMGPU/sg_smi"
