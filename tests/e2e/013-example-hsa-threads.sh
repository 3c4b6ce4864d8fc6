# examples/hsa_threads on simgpu: 4 threads, each its own queue.
. "$TOP/tests/simgpu/env.sh"
"$B/examples/hsa_threads" 4 100
