# 16 threads x 10000 dispatches, each thread its own queue: exactly 160000
# dispatch records, 10000 per queue, no dispatch id twice, nothing lost.
. "$TOP/tests/e2e/18-fault.inc"
traced "$FAULT" storm 16 10000
echo "exit status $?"
f=$(trace_of)
echo "dispatch records: $(records "$f" dispatch)"
echo "distinct dispatch ids: $(awk '/^HSA: .* dispatch .* start:/ { for (i = 5; i <= NF; i++) if ($i ~ /^id:/) print $i }' "$f" | sort -u | wc -l)"
grep '^HSA: .* dispatch .* start:' "$f" | sed 's/.* queue:\([0-9]*\) .*/\1/' | sort | uniq -c | awk '{ n[$1]++ } END { for (c in n) print n[c], "queues with", c, "records" }'
echo "bad times: $(bad_times "$f")"
summary "$f"
