# The application dies mid-run with 4 dispatches in flight, right after the
# 25th of its waited dispatches completed: of SIGSEGV, of abort(), or by
# _exit() (no atexit handler runs).  Each time the trace holds all 25 and
# the summary, which counts the 4 as unfinished, and the process ends as it
# would have without the tracer.
. "$TOP/tests/e2e/18-fault.inc"
# under ASan, its own SIGSEGV handler would take the signal first
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0"
for how in segv abort _exit; do
  rm -f rtg_trace.txt.*
  traced "$FAULT" crash 25 4 $how 2>/dev/null
  echo "$how: exit status $?"
  f=$(trace_of)
  echo "dispatch records: $(records "$f" dispatch), header: $(grep -c '^RTG: .* trace ' "$f")"
  summary "$f" | sed 's/ hsa_calls.* unfinished:/ ... unfinished:/; s/ other_packets.*//'
done
