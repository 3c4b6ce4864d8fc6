# 20 times, on a GPU gone idle: a whole queue of dispatches published with
# one doorbell ring, then one more at once.  ROCR >= 7.2 hands the tracer
# the whole queue in one intercept callback; written on at once, it made
# ROCR 7.2.4's intercept queue assert "no free slot for a retry barrier
# packet" on every run (queue_intercept.c says why).  Every dispatch runs
# and is recorded once, in order, and the runtime asserts nothing.
. "$TOP/tests/e2e/18-fault.inc"
traced "$FAULT" burst 20 2 2>err
echo "exit status $?"
echo "runtime assertions: $(grep -c 'Assertion' err)"
f=$(trace_of)
echo "dispatch records: $(records "$f" dispatch)"
echo "distinct dispatch ids: $(awk '/^HSA: .* dispatch .* start:/ { for (i = 5; i <= NF; i++) if ($i ~ /^id:/) print $i }' "$f" | sort -u | wc -l)"
echo "out of order: $(out_of_order "$f")"
summary "$f" | sed 's/ hsa_calls.* lost:/ lost:/; s/ other_packets.*//'
