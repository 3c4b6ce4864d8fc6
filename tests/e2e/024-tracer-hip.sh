# The real HIP 5.2.3 runtime on the simulated GPU: its queues, kernels
# (mangled and demangled names), barriers and copies appear; the program's
# checks pass, and hipEventElapsedTime is the same with the tracer.
. "$TOP/tests/e2e/02-tracer.inc"
"$SIMGPU/sg_hip" >plain.out 2>&1
traced "$SIMGPU/sg_hip" >traced.out 2>&1
cmp plain.out traced.out && echo "application output unchanged"
tail -n 1 traced.out
f=$(trace_of)
for k in dispatch barrier copy rtg_queue rtg_summary; do kinds "$f" | grep "^$k " >/dev/null && echo "has $k"; done
grep ' dispatch ' "$f" | sed -n "s/.* name:'\(_Z4vadd[^']*\)'.* demangled:'\([^']*\)'.*/\1 = \2/p" | sort -u
grep ' dispatch ' "$f" | sed -n "s/.* name:'\(__amd_rocclr_[a-zA-Z]*\)'.*/\1/p" | sort -u | head -n 3
echo "stop before start: $(bad_times "$f")"
echo "-- SIMGPU_KERNEL_NS=50000"
SIMGPU_KERNEL_NS=50000 traced "$SIMGPU/sg_hip" 2>&1 | grep Elapsed
