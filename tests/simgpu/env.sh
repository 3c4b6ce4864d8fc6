# Sourced by the end-to-end cases (sh) and scripts/rocm-suite.sh: run programs
# on the simulated GPU. Needs SIMGPU (the directory of simgpu's libraries).
# The front end follows what was built for the installed ROCR (simgpu.mk):
# the thunk libhsakmt.so.1 through LD_LIBRARY_PATH where it exists (ROCR up
# to 6.2 loads it), with the host view libsimgpu-view.so (device nodes,
# sysfs and /proc files, for rocminfo) through LD_PRELOAD, else the
# kernel-driver front end libsimgpu-kfd.so, which serves the host view too,
# through LD_PRELOAD (ROCR >= 6.3, thunk built in). SIMGPU_FRONTEND=thunk|kfd
# chooses.
# Under SAN=address the library needs gcc's libasan loaded first, also in
# programs built without it (hipcc ones); ROCR's own leaks and new/delete
# habits are not ours to report.
unset SIMGPU_LOG
if [ -z "${SIMGPU_FRONTEND:-}" ]; then
  if [ -f "$SIMGPU/libhsakmt.so.1" ]; then SIMGPU_FRONTEND=thunk; else SIMGPU_FRONTEND=kfd; fi
fi
if [ "$SIMGPU_FRONTEND" = kfd ]; then simgpu_lib="$SIMGPU/libsimgpu-kfd.so"; else simgpu_lib="$SIMGPU/libhsakmt.so.1"; fi
simgpu_preload="$SIMGPU/libsimgpu-view.so"
[ "$SIMGPU_FRONTEND" = kfd ] && simgpu_preload="$simgpu_lib"
# (ldd itself without our preloads: an ASan-built library preloaded before
# libasan stops every program)
asan=$(LD_PRELOAD= ldd "$simgpu_lib" 2>/dev/null | awk '/libasan/ {print $3}')
export LD_PRELOAD="$simgpu_preload${LD_PRELOAD:+:$LD_PRELOAD}"
[ "$SIMGPU_FRONTEND" = kfd ] || export LD_LIBRARY_PATH="$SIMGPU${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
if [ -n "$asan" ]; then
  export LD_PRELOAD="$asan${LD_PRELOAD:+:$LD_PRELOAD}"
  # use_sigaltstack=0: with libasan preloaded, a HIP program's threads fail
  # at exit in ASan's own UnsetAlternateSignalStack ("unable to unmap"),
  # with or without the tracer; ASan's alternate stack is not what we test.
  export ASAN_OPTIONS="detect_leaks=0:alloc_dealloc_mismatch=0:new_delete_type_mismatch=0:use_sigaltstack=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
fi
unset simgpu_lib simgpu_preload asan
