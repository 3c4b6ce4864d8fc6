# A signal with a handler of the application's (HIP registers one on each
# marker before it submits it) is left at the application's value while its
# op runs: the runtime runs the handler on the hardware's decrement as it
# would untraced, and the tracer completes the op first, in the handler's
# wrapper, with no handler of its own to register per op ("raised 0": the
# value read from the signal's memory just after each submission was never
# above the application's 1).
# Here the program learns of each completion by polling the signal's memory
# (as the GPU and HIP's own polling do, unseen by any tool) and sets it back
# to 1 at once for the next dispatch, possibly before the tracer saw the 0:
# that op is still found done (the hardware wrote its end time), so the
# next one's completion, forwarded after it, comes and the program ends;
# every dispatch is recorded with its 20 us.
. "$TOP/tests/e2e/02-tracer.inc"
SIMGPU_KERNEL_NS=20000 timeout 120 env HSA_TOOLS_LIB="$TRACER" "$PROGS/tp_stretch" reuse 200 >out
echo "exit status $?"
grep '^raised' out
f=$(trace_of)
durations "$f" dispatch
echo "distinct ids $(grep '^HSA: .* dispatch .* start:' "$f" | sed 's/.* id:\([0-9]*\).*/\1/' | sort -u | wc -l)"
summary "$f" | sed 's/ buffer_waits.*//'
