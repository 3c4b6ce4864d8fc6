# simgpu: barrier-AND and barrier-OR wait for real dependencies, also across
# queues.
. "$TOP/tests/simgpu/env.sh"
"$SIMGPU/sg_barrier"
