# A signal destroyed while its kernel still runs, its memory handed at once
# to a new signal of another value (tp_orphan): the tracer gives the destroy
# RTG_EXIT_WAIT_MS, then counts the kernel as unfinished and stops looking
# for its completion in that memory.  Its queue's waiter goes on to the
# dispatches behind it, which only the waiter completes (no signal of their
# own): more of them than the queue lets be in flight, so a waiter polling
# the lost kernel for ever throttles the program for ever (a hang).  Every
# other dispatch is recorded, on every runtime release.
. "$TOP/tests/e2e/02-tracer.inc"
RTG_EXIT_WAIT_MS=200 traced timeout 60 "$PROGS/tp_orphan" 100 2>err
echo "exit status $?"
f=$(trace_of)
echo "dispatch records: $(grep -c '^HSA: .* dispatch .* start:' "$f")"
summary "$f" | sed 's/.* lost:/lost:/; s/ other_packets.*//'
