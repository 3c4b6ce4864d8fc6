# HCC_PROFILE=2: the legacy profile: lines rpt reads, one per kernel,
# barrier and copy, in the original's exact layout; no API records.
. "$TOP/tests/e2e/02-tracer.inc"
SIMGPU_KERNEL_NS=3000 HCC_PROFILE=2 RTG_HSA_API_FILTER=all traced "$SIMGPU/sg_barrier" >/dev/null
f=$(trace_of)
kinds "$f"
grep '^profile: ' "$f" | cut -f 1,2,3 | sort | uniq -c
grep -c '^profile: [ a-z]\{7\};	[^;]\{40\};	[ 0-9.]\{6\} us;	[0-9]*;	[0-9]*;	#[0-9]*\.[0-9]*\.[0-9]*;$' "$f"
rm -f rtg_trace.txt.*
echo "-- copies"
SIMGPU_GPUS=1 HCC_PROFILE=2 traced "$SIMGPU/sg_copy" >/dev/null
f=$(trace_of)
grep '^profile: ' "$f" | cut -f 1,2 | sort | uniq -c
grep '^profile:    copy;' "$f" | grep -c '	#[0-9.]*;	[0-9]* bytes;	[0-9.e+-]* MB;	[0-9.e+inf-]* GB/s;$'
rm -f rtg_trace.txt.*
echo "-- devices: #device.queue.seq numbers the GPUs from 0, as the original did (the CPU agent is no device)"
SIMGPU_KERNEL_NS=3000 HCC_PROFILE=2 traced "$SIMGPU/sg_barrier" >/dev/null
grep '^profile: ' "$(trace_of)" | sed 's/.*	#\([0-9]*\)\.\([0-9]*\)\.[0-9]*;.*/device \1 queue \2/' | sort | uniq -c
rm -f rtg_trace.txt.*
echo "-- devices of 2 GPUs"
SIMGPU_GPUS=2 SIMGPU_KERNEL_NS=1000000 HCC_PROFILE=2 traced "$SIMGPU/sg_concurrent" >/dev/null
grep '^profile: ' "$(trace_of)" | sed 's/.*	#\([0-9]*\)\.\([0-9]*\)\.[0-9]*;.*/device \1 queue \2/' | sort | uniq -c
