# RTG_PROFILE=0 turns packets off; garbage in an RTG_* variable gives a
# clear message and the documented default; RTG_VERBOSE=1 prints the
# settings, 2 also the traced HSA functions.
. "$TOP/tests/e2e/02-tracer.inc"
RTG_PROFILE=0 traced "$SIMGPU/sg_dispatch" "$SIMGPU/kernels.hsaco" | tail -n 1
kinds "$(trace_of)"
rm -f rtg_trace.txt.*
echo "-- RTG_PROFILE=maybe"
RTG_PROFILE=maybe traced "$SIMGPU/sg_dispatch" "$SIMGPU/kernels.hsaco" 2>err >/dev/null
cat err
kinds "$(trace_of)" | grep dispatch
rm -f rtg_trace.txt.*
echo "-- RTG_VERBOSE=lots HCC_PROFILE=x RTG_MPI_POLL=sometimes"
RTG_VERBOSE=lots HCC_PROFILE=x RTG_MPI_POLL=sometimes traced "$SIMGPU/sg_agents" 2>&1 >/dev/null | grep 'cannot understand'
echo "-- RTG_VERBOSE=1"
RTG_VERBOSE=1 traced "$SIMGPU/sg_agents" 2>&1 >/dev/null | grep -E '^rtg: (RTG_|HCC_)[A-Z_]* *=' | sed 's/ *=.*//; s/^rtg: //' | tr '\n' ' '
echo
echo "-- RTG_VERBOSE=2 RTG_HSA_API_FILTER=hsa_signal_create"
RTG_VERBOSE=2 RTG_HSA_API_FILTER=hsa_signal_create traced "$SIMGPU/sg_agents" 2>&1 >/dev/null | grep -q '^rtg: HSA API skip hsa_signal_destroy' && echo "skips listed"
RTG_VERBOSE=2 RTG_HSA_API_FILTER=hsa_signal_create traced "$SIMGPU/sg_agents" 2>&1 >/dev/null | grep '^rtg: HSA API trace '
