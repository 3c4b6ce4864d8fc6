# Sourced by the end-to-end cases (sh): run programs on the simulated GPU.
# Needs SIMGPU (directory of libhsakmt.so.1). Under SAN=address the library
# needs gcc's libasan loaded first, also in programs built without it
# (hipcc ones); ROCR's own leaks and new/delete habits are not ours to report.
export LD_LIBRARY_PATH="$SIMGPU${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
unset SIMGPU_LOG
if asan=$(ldd "$SIMGPU/libhsakmt.so.1" 2>/dev/null | awk '/libasan/ {print $3}') && [ -n "$asan" ]; then
  export LD_PRELOAD="$asan${LD_PRELOAD:+:$LD_PRELOAD}"
  # use_sigaltstack=0: with libasan preloaded, a HIP program's threads fail
  # at exit in ASan's own UnsetAlternateSignalStack ("unable to unmap"),
  # with or without the tracer; ASan's alternate stack is not what we test.
  export ASAN_OPTIONS="detect_leaks=0:alloc_dealloc_mismatch=0:new_delete_type_mismatch=0:use_sigaltstack=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
fi
