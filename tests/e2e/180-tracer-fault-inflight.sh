# The application exits with GPU work in flight (5 dispatches of 30 s on
# simgpu): the tracer waits RTG_EXIT_WAIT_MS, then writes what completed and
# counts the rest as unfinished in the summary (and says so once); the
# application's output and exit status are its own.
. "$TOP/tests/e2e/18-fault.inc"
for wait in 300 0; do
  rm -f rtg_trace.txt.*
  echo "-- RTG_EXIT_WAIT_MS=$wait"
  RTG_EXIT_WAIT_MS=$wait traced "$FAULT" inflight 20 5 2>err
  echo "exit status $?"
  f=$(trace_of)
  echo "dispatch records: $(records "$f" dispatch)"
  summary "$f"
  sed "s/rtg_trace\.txt\.[0-9]*/rtg_trace.txt.PID/" err
done
