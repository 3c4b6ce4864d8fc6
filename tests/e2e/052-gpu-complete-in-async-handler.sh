# An application that learns of completions from async handlers (HIP >= 6
# registers one on each marker it waits for, before submitting it) gets its
# ops completed by the runtime's async-events thread, on the hardware's
# decrement: the signal is left at the application's value (sigtrack.c), and
# the wrapper of the application's handler completes the op before it calls
# the handler.  Without it the queue's waiter thread completes them all (0
# here), 200 us to 1 ms late.  The threshold leaves room for a loaded
# machine, as in 050.
. "$TOP/tests/e2e/02-tracer.inc"
SIMGPU_KERNEL_NS=20000 traced "$PROGS/tp_stretch" handler 100 >out
f=$(trace_of)
ht=$(sed -n 's/^handler_tid //p' out)
completed_by "$f" $ht "the handlers' thread"
