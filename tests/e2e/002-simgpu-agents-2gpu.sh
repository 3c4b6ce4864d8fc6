# simgpu: SIMGPU_GPUS=2 with one gfx target per GPU.
. "$TOP/tests/simgpu/env.sh"
SIMGPU_GPUS=2 SIMGPU_GFX=gfx908,gfx90a "$SIMGPU/sg_agents"
