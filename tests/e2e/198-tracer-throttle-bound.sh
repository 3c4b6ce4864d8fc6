# A queue whose oldest op never finishes, or never looks finished to the
# tracer, while the program submits more than the tracer lets be in flight
# (tp_held): the submitting thread, held back inside the runtime's doorbell
# lock, goes on once that op has not landed for RTG_THROTTLE_MS (1 s by
# default) and the ring has room; it says so once on stderr and counts it
# as throttle_releases.  Without the bound each mode hangs (the timeout's
# exit status 124).  "add": the op's signal raised by the program while
# the kernel runs, so the tracer's mark is never passed; its destroy
# counts it as unfinished and every other dispatch is recorded.
# "barrier": a barrier waiting for a signal set after all submissions.
# "full": the same set by another thread after 1 s while the program
# fills the ring beyond its size: the submitter is let on only while the
# ring has room (the runtime's intercept queue never overflows), and every
# op runs in order.
# "addall": as "add", and every dispatch the ring takes behind that op
# also has a signal the program raises (none ever looks finished): the
# hardware's end times of their packets prove the ring's room once the GPU
# has run them, so the submitter goes on (before, it waited for ever);
# those ops count as unfinished, the program's signals read as untraced.
. "$TOP/tests/e2e/02-tracer.inc"
run() {
  rm -f rtg_trace.txt.*
  "$@" 2>err
  echo "exit status $?"
  sed -n 's/^rtg: \(a GPU op has not looked finished\).*: \(submitters.*\)/\1: \2/p' err
  f=$(trace_of)
  echo "dispatch records: $(grep -c '^HSA: .* dispatch .* start:' "$f")," \
    "barrier records: $(grep -c '^HSA: .* barrier .* start:' "$f")," \
    "out of order: $(out_of_order "$f")"
  summary "$f" | sed 's/.* lost:/lost:/; s/ other_packets:[0-9]*//; s/ write_errors.*buffer_wait_ns:[0-9]*//'
}
echo "-- add"
run env RTG_EXIT_WAIT_MS=200 HSA_TOOLS_LIB="$TRACER" timeout 60 "$PROGS/tp_held" add 100
echo "-- barrier"
run env HSA_TOOLS_LIB="$TRACER" timeout 60 "$PROGS/tp_held" barrier 40
echo "-- full"
run env RTG_THROTTLE_MS=300 HSA_TOOLS_LIB="$TRACER" timeout 60 "$PROGS/tp_held" full 150
echo "-- addall"
run env RTG_THROTTLE_MS=300 RTG_EXIT_WAIT_MS=20 HSA_TOOLS_LIB="$TRACER" timeout 60 "$PROGS/tp_held" addall 100
