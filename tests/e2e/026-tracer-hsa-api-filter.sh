# HSA API tracing and RTG_HSA_API_FILTER / _FILTER_OUT as documented:
# unset: no HSA API records; "all"; "core"; "ext"; substrings; FILTER_OUT
# alone means all but those.  Records carry decoded arguments and times.
. "$TOP/tests/e2e/02-tracer.inc"
run() {
  rm -f rtg_trace.txt.*
  env "$@" HSA_TOOLS_LIB="$TRACER" "$SIMGPU/sg_dispatch" "$SIMGPU/kernels.hsaco" >/dev/null
  f=$(trace_of)
  awk '$1 == "HSA:" && $4 ~ /^hsa_/ { n++; if ($4 ~ /^hsa_amd_/) e++; else c++; fn[$4] = 1 }
       END { k = 0; for (x in fn) k++; printf "calls %s, core %d, ext %d, functions %d\n", (n > 0 ? "yes" : "no"), c, e, k }' "$f"
}
echo "-- unset"; run X=1
echo "-- all"; run RTG_HSA_API_FILTER=all | sed "s/[0-9][0-9]*/N/g"
echo "-- core"; run RTG_HSA_API_FILTER=core | sed "s/core [0-9]*/core N/; s/, functions.*//"
echo "-- ext"; run RTG_HSA_API_FILTER=ext | sed "s/ext [0-9]*/ext N/; s/, functions.*//"
echo "-- hsa_signal_create,hsa_queue_create"; run RTG_HSA_API_FILTER=hsa_signal_create,hsa_queue_create
grep -o " hsa_[a-z_]* " "$(trace_of)" | sort | uniq -c
echo "-- FILTER_OUT=hsa_signal,hsa_agent alone"
run RTG_HSA_API_FILTER_OUT=hsa_signal,hsa_agent | sed 's/, core.*//'
grep -c " hsa_signal_\| hsa_agent_" "$(trace_of)"
echo "-- one record"
run RTG_HSA_API_FILTER=hsa_queue_create >/dev/null
grep " hsa_queue_create " "$(trace_of)" | head -n 1 | sed 's/^HSA: pid:[0-9]* tid:[0-9]* //; s/0x[0-9a-f]*/ADDR/g; s/@[0-9]* +[0-9]*/@T +D/'
summary "$(trace_of)" | sed 's/.*hsa_calls:\([0-9]*\).*/hsa_calls \1/'
