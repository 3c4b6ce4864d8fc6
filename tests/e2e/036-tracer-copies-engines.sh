# Copies on separate engines complete independently (a small device->host
# copy is seen done while a slow host->device one still runs); rect copies
# run for real (data checked) and are recorded with their direction and
# bytes; the program toggling copy timestamps itself still gets every copy
# recorded and reads its own copy's times once it enabled them; a destroyed
# queue's waiter thread ends with it.
. "$TOP/tests/e2e/02-tracer.inc"
export SIMGPU_SDMA_MBPS=200
copies() {
  grep ' copy ' "$1" | sed 's/.* bytes:\([0-9]*\) kind:\([A-Za-z]*\) src_agent:\([0-9]*\) dst_agent:\([0-9]*\).* api:\([a-z_]*\).*/\5 \2 \1 bytes \3->\4/' | sort | uniq -c
}
for what in slow rect toggle; do
  echo "-- $what"
  rm -f rtg_trace.txt.*
  "$PROGS/tp_copies" $what >plain.out
  traced "$PROGS/tp_copies" $what >traced.out
  cmp plain.out traced.out && echo "application output unchanged"
  cat traced.out
  f=$(trace_of)
  copies "$f"
  echo "stop before start: $(bad_times "$f")"
  summary "$f" | sed 's/ hsa_calls.*//'
done
echo "-- queues"
rm -f rtg_trace.txt.*
traced "$PROGS/tp_queues" 30
kinds "$(trace_of)" | grep -E '^(dispatch|rtg_queue) '
