# simgpu: host memory locked twice at one address with two sizes, each
# lock's agent pointer used by GPU copies, unlocked twice, locked again
# (sg_lock_twice; HIP does so when it locks a buffer at the address of one
# it freed still locked).  The kernel-driver front end offers KFD's SVM API,
# as kernels do, so ROCR >= 6.3's built-in thunk registers host memory
# through it: without it two userptr objects at one address left the
# thunk's deregistration without a single object to find, and ROCR 7.2
# asserted "Failed to deregister host pointer" (hipblas-test).  The thunk
# front end counts registrations per address and size.
. "$TOP/tests/simgpu/env.sh"
timeout 60 "$SIMGPU/sg_lock_twice" 2>&1
echo "exit status $?"
