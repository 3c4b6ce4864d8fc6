# RTG_KERNEL_RENAME: a dispatch is named after the innermost ROCTx range
# its thread was in when it submitted the packet (the GPU and the host
# record, and HCC_PROFILE's line); the kernel's own name moves to
# demangled:.  Outside any range, and without the variable, names stay.
# The stand-in libroctx64 (5.3.1+ interface) of tests/abi is preloaded.
. "$TOP/tests/e2e/02-tracer.inc"
export LD_PRELOAD="${LD_PRELOAD:+$LD_PRELOAD:}$B/abi/roctx53/libroctx64.so.4"
names() {
  awk '$1 == "HSA:" && $4 == "dispatch" {
      kind = / start:/ ? "gpu " : "host"
      n = $0; sub(/.* name:\x27/, "", n); sub(/\x27.*/, "", n)
      d = ""; if (/ demangled:/) { d = $0; sub(/.* demangled:\x27/, "", d); sub(/\x27.*/, "", d); d = " demangled " d }
      for (i = 5; i <= NF; i++) if ($i ~ /^id:/) id = substr($i, 4)
      print kind, id, n d }' "$1" | sort
}
for rename in 0 1; do
  echo "-- RTG_KERNEL_RENAME=$rename"
  rm -f rtg_trace.txt.*
  RTG_KERNEL_RENAME=$rename RTG_HSA_HOST_DISPATCH=1 traced "$PROGS/tp_roctx" "$SIMGPU/kernels.hsaco"
  names "$(trace_of)"
done
echo "-- HCC_PROFILE=2"
rm -f rtg_trace.txt.*
RTG_KERNEL_RENAME=1 HCC_PROFILE=2 traced "$PROGS/tp_roctx" "$SIMGPU/kernels.hsaco"
# in start order (the lines are written as each kernel completes, by
# whichever thread saw it complete)
grep '^profile: *kernel;' "$(trace_of)" | sort -t';' -k4,4n | cut -d';' -f2 | tr -d ' \t'
