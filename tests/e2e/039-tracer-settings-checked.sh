# Every setting is checked the same way, and none stops the application:
# an API filter token that selects no function of the running release is
# said with the closest names (a keyword or name in the wrong case first);
# RTG_HIP_PATH other than got/callback, HCC_PROFILE other than 0/2 and
# RTG_VERBOSE above 2 get a message and the documented value.
. "$TOP/tests/e2e/02-tracer.inc"
HIP="$B/examples/hip_streams"
first() { sed 's/\(closest: [^,]*\).*/\1, .../'; }
echo "-- RTG_HIP_API_FILTER=nonsense,ALL,hipmalloc,Memcopy,hipMemset RTG_HIP_API_FILTER_OUT=Asink"
RTG_HIP_API_FILTER=nonsense,ALL,hipmalloc,Memcopy,hipMemset RTG_HIP_API_FILTER_OUT=Asink traced "$HIP" -n 1 >/dev/null 2>err
echo "status $?"
grep '^rtg:' err | sed 's/\("nonsense" .*closest: \).*/\1.../; s/\("Asink" .*closest: \).*/\1.../' | first
echo "HIP records: $(grep -c '^HIP:' "$(trace_of)")"
rm -f rtg_trace.txt.*
echo "-- RTG_HSA_API_FILTER=hsa_sgnal,Core,hsa_queue RTG_HSA_API_FILTER_OUT=destory"
RTG_HSA_API_FILTER=hsa_sgnal,Core,hsa_queue RTG_HSA_API_FILTER_OUT=destory traced "$SIMGPU/sg_agents" >/dev/null 2>err
echo "status $?"
first <err
rm -f rtg_trace.txt.*
echo "-- filters that select functions: no message"
RTG_HIP_API_FILTER=all,hipMalloc RTG_HSA_API_FILTER=core,ext,hsa_signal_create RTG_HSA_API_FILTER_OUT=all \
  traced "$HIP" -n 1 >/dev/null 2>err
echo "status $?, messages $(grep -c '^rtg:' err)"
rm -f rtg_trace.txt.*
echo "-- RTG_HIP_PATH=bogus"
RTG_HIP_PATH=bogus traced "$HIP" -n 1 >/dev/null 2>err
echo "status $?"
grep '^rtg:' err
grep -q '^HIP:' "$(trace_of)" && echo "HIP calls traced"
rm -f rtg_trace.txt.*
for v in 1 7 true; do
  echo "-- HCC_PROFILE=$v"
  HCC_PROFILE=$v traced "$SIMGPU/sg_dispatch" "$SIMGPU/kernels.hsaco" >/dev/null 2>err
  echo "status $?"
  grep '^rtg:' err
  kinds "$(trace_of)" | grep -E '^(profile|dispatch) '

  rm -f rtg_trace.txt.*
done
echo "-- RTG_VERBOSE=7"
RTG_VERBOSE=7 traced "$SIMGPU/sg_agents" 2>&1 >/dev/null | grep -E 'RTG_VERBOSE|^rtg: HSA API skip hsa_signal_create$'
