# fork without exec and fork+exec while tracing (HSA API calls too): each
# process writes its own rtg_trace.txt.<pid> (an exec'ed image its own
# rtg_trace.txt.exec1.<pid>, after the header and summary of the image that
# forked), every record in a file carries that pid, the children have no
# record of their parent's, the exec'ed child traces itself, nothing is
# lost or written twice.
. "$TOP/tests/e2e/18-fault.inc"
RTG_HSA_API_FILTER=all traced "$FAULT" fork 30
echo "exit status $?"
echo "files: $(ls rtg_trace.txt.* | wc -l)"
for f in rtg_trace.txt.*; do
  pid=${f##*.}
  foreign=$(grep -v -c "^[A-Z]*: pid:$pid " "$f")
  api=$(grep -c '^HSA: pid:[0-9]* tid:[0-9]* hsa_' "$f")
  calls=$(val "$(grep '^RTG: .* summary ' "$f")" hsa_calls)
  dups=$(awk '/^HSA: .* dispatch .* start:/ { for (i = 5; i <= NF; i++) if ($i ~ /^id:/) print $i }' "$f" | sort | uniq -d | wc -l)
  echo "dispatches $(records "$f" dispatch), foreign pids $foreign, api records = summary: $([ "$api" = "$calls" ] && echo yes || echo "no ($api vs $calls)"), api records: $([ "$api" -gt 0 ] && echo some || echo none), duplicate ids $dups, $(summary "$f" | sed 's/.* lost:/lost:/; s/ other_packets.*//')"
done | sort
