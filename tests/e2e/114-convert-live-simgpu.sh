# Trace HIP programs live on the simulated GPU and convert: every kernel
# launch has an arrow to its kernel, stacks are symbolized, the JSON checks.
. "$TOP/tests/simgpu/env.sh"
HSA_TOOLS_LIB="$B/rtg_tracer.so" RTG_BACKTRACE=hipLaunchKernel "$B/simgpu/sg_hip" >/dev/null 2>&1
SIMGPU_GPUS=2 HSA_TOOLS_LIB="$B/rtg_tracer.so" "$B/examples/hip_streams" >/dev/null 2>&1
echo "traces: $(ls rtg_trace.txt.* | wc -l)"
"$B/rtg-convert" -q -f -o out.json rtg_trace.txt.*
echo "exit $?"
"$B/tests/test_convert_chrome" out.json | sed 's/.*: [0-9]* events.*/checked/'
"$B/tests/test_convert_chrome" --facts out.json | grep -E '^(kernel launches|stacks)' | sed 's/frames: [0-9]*, //; s/stacks: [0-9]*/stacks: some/'
launches=$(grep -h -c '^HIP:.* hipLaunchKernel' rtg_trace.txt.* | awk '{ s += $1 } END { print s }')
"$B/tests/test_convert_chrome" --facts out.json | grep -q "kernel launches with an arrow: $launches of $launches" && echo "all $launches launches"
