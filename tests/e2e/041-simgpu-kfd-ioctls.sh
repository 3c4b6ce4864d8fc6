# simgpu's kernel-driver front end (libsimgpu-kfd.so, for ROCR >= 6.3 whose
# thunk is built in), driven without ROCR: /dev/kfd version, the sysfs
# topology, render nodes, a buffer object mapped at its own address, events
# with KFD's ages, an SDMA queue running copy/fence/trap packets, ENOTTY for
# what is not simulated.
SIMGPU_FRONTEND=kfd
. "$TOP/tests/simgpu/env.sh"
"$SIMGPU/kfd_ioctls"
