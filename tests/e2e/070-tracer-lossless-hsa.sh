# Lossless by default: 1 M hsa_signal_load_relaxed calls as fast as one
# thread can make them, traced with default buffer settings: every call has
# its record, the summary counts it and loses nothing.  Then with a cap of
# 1 MB (RTG_BUFFER_MB=1) and a writer that stalls until someone waits for
# it (RTG_WRITER_STALL=1, so the cap is reached on every run, not only when
# the writer happens to fall behind): the thread waits for the writer
# instead of dropping (buffer_waits > 0), and still every call is written.
# (RTG_HSA_POLL=each: one record a call, the repeated calls are not
# coalesced, so that the buffers fill.)
. "$TOP/tests/e2e/02-tracer.inc"
calls() { grep -c '^HSA: .* hsa_signal_load_relaxed (' "$1"; }
for cap in default 1; do
  rm -f rtg_trace.txt.*
  if [ $cap = default ]; then
    RTG_HSA_POLL=each RTG_HSA_API_FILTER=all traced "$PROGS/tp_bench" api 200000 >out
  else
    RTG_BUFFER_MB=1 RTG_WRITER_STALL=1 RTG_HSA_POLL=each RTG_HSA_API_FILTER=all traced "$PROGS/tp_bench" api 200000 >out
  fi
  f=$(trace_of)
  s=$(summary "$f")
  echo "cap $cap: loads recorded $(calls "$f") of 1000000, lost $(val " $s" lost), HSA records = summary's hsa_calls: $([ "$(grep -c '^HSA: ' "$f")" = "$(val " $s" hsa_calls)" ] && echo yes || echo no), waited: $([ "$(val " $s" buffer_waits)" -gt 0 ] && echo yes || echo no)"
done
