# examples/hsa_fork on simgpu: fork without exec (host work), fork+exec (HSA
# in the child), parent keeps dispatching.
. "$TOP/tests/simgpu/env.sh"
"$B/examples/hsa_fork"
