# The application dies of SIGSEGV / abort / SIGTERM: what was recorded is
# written, with the summary, and the process still dies of its signal.
. "$TOP/tests/e2e/02-tracer.inc"
# under ASan, its own SIGSEGV handler would take the signal first
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0"
for how in segv abort term; do
  rm -f rtg_trace.txt.*
  traced "$PROGS/tp_crash" 7 $how 2>/dev/null
  echo "$how: exit status $?"
  f=$(trace_of)
  kinds "$f" | grep -E '^(dispatch|rtg_summary) '
done
