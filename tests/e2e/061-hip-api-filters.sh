# RTG_HIP_API_FILTER / RTG_HIP_API_FILTER_OUT / RTG_HIP_API_ARGS / RTG_VERBOSE=2
# on the real HIP 5.2.3 runtime (simgpu).
. "$TOP/tests/simgpu/env.sh"
# the checking tools run without the sanitizer runtime env.sh may preload
# (it reports mawk's own over-reads)
awk() { LD_PRELOAD= command awk "$@"; }
names() { grep '^HIP:' rtg_trace.txt.* | awk '{ f = $4; sub(/\(.*/, "", f); print f }' | sort | uniq -c | sed 's/^ *//'; rm -f rtg_trace.txt.*; }
echo "-- FILTER=hipMalloc,hipStream"
RTG_HIP_API_FILTER=hipMalloc,hipStream HSA_TOOLS_LIB="$B/rtg_tracer.so" "$B/abi/hip_calls" >/dev/null; names
echo "-- FILTER_OUT=Configuration,Event,Stream (FILTER unset: all others)"
RTG_HIP_API_FILTER_OUT=Configuration,Event,Stream HSA_TOOLS_LIB="$B/rtg_tracer.so" "$B/abi/hip_calls" >/dev/null; names
echo "-- FILTER=hipMemcpy FILTER_OUT=Async"
RTG_HIP_API_FILTER=hipMemcpy RTG_HIP_API_FILTER_OUT=Async HSA_TOOLS_LIB="$B/rtg_tracer.so" "$B/abi/hip_calls" >/dev/null; names
echo "-- FILTER= (empty: HIP tracing off)"
RTG_HIP_API_FILTER= HSA_TOOLS_LIB="$B/rtg_tracer.so" "$B/abi/hip_calls" >/dev/null; names
echo "-- ARGS (pointers masked)"
RTG_HIP_API_FILTER=hipMalloc,hipMemcpy,hipLaunchKernel,hipMemset,hipEventElapsed RTG_HIP_API_ARGS=1 \
  HSA_TOOLS_LIB="$B/rtg_tracer.so" "$B/abi/hip_calls" >/dev/null
grep '^HIP:' rtg_trace.txt.* | sed -e 's/^HIP: pid:[0-9]* tid:[0-9]* //' -e 's/ @.*//' -e 's/0x[0-9a-f]*/P/g' -e 's/ms=[0-9.]*/ms=T/' | sort | uniq -c | sed 's/^ *//'
rm -f rtg_trace.txt.*
echo "-- VERBOSE=2 lists every function of the release"
RTG_VERBOSE=2 RTG_HIP_API_FILTER=hipMalloc HSA_TOOLS_LIB="$B/rtg_tracer.so" "$B/abi/hip_calls" 2>err >/dev/null
grep -c 'HIP API keep' err
grep -c 'HIP API skip' err
grep 'HIP API keep' err | sed 's/.*keep //'
grep -o '[a-z0-9.+-]* path, HIP op table [^)]*)' err
