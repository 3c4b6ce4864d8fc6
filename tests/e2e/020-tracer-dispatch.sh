# Kernel dispatches on the simulated GPU: exactly one record per dispatch,
# GPU times of exactly the simulated duration (also one a dispatch hook
# chose), names from the code object, and the application sees the same
# results and timestamps as without the tracer.
. "$TOP/tests/e2e/02-tracer.inc"
"$SIMGPU/sg_dispatch" "$SIMGPU/kernels.hsaco" >plain.out
traced "$SIMGPU/sg_dispatch" "$SIMGPU/kernels.hsaco" >traced.out
cmp plain.out traced.out && echo "application output unchanged"
f=$(trace_of)
head -n 1 "$f" | sed 's/^RTG: .* trace format:\([0-9]*\) .*clock:\([a-z]*\).*/header: format \1 clock \2/'
kinds "$f"
durations "$f" dispatch
echo "stop before start: $(bad_times "$f")"
grep ' dispatch ' "$f" | sed "s/.* name:'\([^']*\)'.* workgroup:\([^ ]*\) grid:\([^ ]*\).*/\1 wg \2 grid \3/" | sort | uniq -c
summary "$f"
