# Threads start and exit while tracing: 40 waves of 16 short-lived threads
# (each 50 hsa_signal_create/destroy pairs and 20 dispatches on a shared
# queue) beside one long-lived dispatching thread: exited threads' buffers
# are reused.  Every record of every thread is there, once.
. "$TOP/tests/e2e/18-fault.inc"
RTG_HSA_API_FILTER=hsa_signal_create,hsa_signal_destroy traced "$FAULT" churn 40 16 50 20 2>err
echo "exit status $?"
long=$(sed -n 's/^churn: long thread dispatches //p' err)
f=$(trace_of)
d=$(records "$f" dispatch)
echo "dispatch records - long thread's: $((d - long)) (want $((40 * 16 * 20)))"
echo "hsa_signal_create records: $(grep -c '^HSA: .* hsa_signal_create ' "$f") (want $((40 * 16 * 51 + 1)))"
echo "hsa_signal_destroy records: $(grep -c '^HSA: .* hsa_signal_destroy ' "$f") (want $((40 * 16 * 51 + 1)))"
tids=$(grep '^HSA: ' "$f" | cut -d' ' -f3 | sort -u | wc -l)
[ "$tids" -gt $((40 * 16)) ] && echo "threads with records: enough" || echo "threads with records: $tids"
echo "duplicate dispatch ids: $(awk '/^HSA: .* dispatch .* start:/ { for (i = 5; i <= NF; i++) if ($i ~ /^id:/) print $i }' "$f" | sort | uniq -d | wc -l)"
echo "summary dispatches = records: $([ "$(val "$(grep '^RTG: .* summary ' "$f")" dispatches)" = "$d" ] && echo yes || echo no)"
summary "$f" | sed 's/.* lost:/lost:/; s/ other_packets.*//'
