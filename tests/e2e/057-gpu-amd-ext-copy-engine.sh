# The runtime's AMD-extension table (2.560 on ROCR 6.1, 2.592 on 6.4, 2.624
# on 7.2) is of a known layout, and a program's copies on a chosen SDMA
# engine (hsa_amd_memory_async_copy_on_engine, ROCR >= 5.6) are traced: the
# two API calls with their arguments by name, and both copies with their
# direction, size and api.  The application's output is the same with and
# without the tracer.  ROCR 5.2.3 (Debian 12) lacks the function: SKIP.
. "$TOP/tests/e2e/02-tracer.inc"
"$PROGS/tp_copy_engine" >plain.out
st=$?
if [ $st = 77 ]; then cat plain.out; exit 77; fi
RTG_VERBOSE=1 RTG_HSA_API_FILTER=hsa_amd_memory_copy_engine_status,hsa_amd_memory_async_copy_on_engine \
  traced "$PROGS/tp_copy_engine" >traced.out 2>err.txt
cmp plain.out traced.out && echo "application output unchanged"
cat traced.out
grep 'rtg: tables:' err.txt >&2
echo "AMD-extension table layout known: $(grep -q 'unknown AMD extension table' err.txt && echo no || echo yes)"
f=$(trace_of)
grep '^HSA: .* hsa_amd_memory_copy_engine_status (' "$f" | sed 's/.* \(hsa_amd_memory_copy_engine_status\) (\(dst_agent\)=[^,]*, \(src_agent\)=[^,]*, \(engine_ids_mask\)=[^)]*) ret=\([0-9A-Z_]*\).*/\1 (\2, \3, \4) ret=\5/'
grep '^HSA: .* hsa_amd_memory_async_copy_on_engine (' "$f" |
  sed 's/.* \(hsa_amd_memory_async_copy_on_engine\) (.* size=\([0-9]*\),.* engine_id=\([A-Z_0-9]*\), force_copy_on_sdma=\([a-z]*\)) ret=\([0-9A-Z_]*\).*/\1 size=\2 engine_id=\3 force=\4 ret=\5/'
grep ' copy .* start:' "$f" | sed 's/.* bytes:\([0-9]*\) kind:\([A-Za-z]*\).* api:\([a-z_]*\).*/copy \2 \1 bytes api:\3/' | sort
echo "stop before start: $(bad_times "$f")"
