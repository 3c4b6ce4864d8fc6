# Lossless by default on the real HIP runtime: 500,000 hipGetDevice calls
# as fast as one thread can make them, every one recorded (callback-5.2
# path of HIP 5.2.3 on the simulated GPU), none lost.
. "$TOP/tests/e2e/02-tracer.inc"
RTG_HIP_API_FILTER=all traced "$PROGS/tp_hip_bench" api 100000 >out
f=$(trace_of)
s=$(summary "$f")
echo "hipGetDevice recorded $(grep -c '^HIP: .* hipGetDevice' "$f") of 500000, lost $(val " $s" lost), HIP records = summary's hip_calls: $([ "$(grep -c '^HIP: ' "$f")" = "$(val " $s" hip_calls)" ] && echo yes || echo no)"
