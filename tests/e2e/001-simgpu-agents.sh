# simgpu: ROCR initialises one CPU and the default GPU (gfx90a) completely.
. "$TOP/tests/simgpu/env.sh"
"$SIMGPU/sg_agents"
