# simgpu: every accepted SIMGPU_GFX target initialises (gfx10 has wave32).
. "$TOP/tests/simgpu/env.sh"
for g in gfx900 gfx906 gfx908 gfx90a gfx1010 gfx1030; do
  SIMGPU_GFX=$g "$SIMGPU/sg_agents" | grep gpu
done
