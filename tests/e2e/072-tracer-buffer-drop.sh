# RTG_BUFFER_FULL=drop with a cap of 1 MB: API records that find no room
# are dropped and counted exactly (records written + lost = calls made),
# and GPU records are never dropped: 20,480 dispatches, each recorded,
# while a second thread floods the buffers with API calls (RTG_HSA_POLL=each:
# one record a call, none coalesced).
. "$TOP/tests/e2e/02-tracer.inc"
RTG_BUFFER_MB=1 RTG_BUFFER_FULL=drop RTG_HSA_POLL=each RTG_HSA_API_FILTER=all SIMGPU_KERNEL_NS=1000 \
  traced "$PROGS/tp_bench" dispatch 20480 flood >out 2>err
f=$(trace_of)
s=$(summary "$f")
api=$(grep -c '^HSA: .*) ret=' "$f")
lost=$(val " $s" lost)
echo "dispatch records $(grep -c '^HSA: .* dispatch .* start:' "$f") (summary $(val " $s" dispatches))"
echo "API records + lost = summary's hsa_calls: $([ $((api + lost)) = "$(val " $s" hsa_calls)" ] && echo yes || echo "no ($api + $lost vs $(val " $s" hsa_calls))")"
echo "some dropped: $([ "$lost" -gt 0 ] && echo yes || echo no), waited: $(val " $s" buffer_waits)"
grep -c "records lost (buffers full)" err
