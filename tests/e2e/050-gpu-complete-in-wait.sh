# No thread hop at completion: a program that waits for each dispatch
# (tp_stretch wait) gets its ops completed by its own thread, inside its
# hsa_signal_wait_scacquire: dispatch records name the main thread.  The
# queue's waiter thread completes an op when its poll sees the hardware's
# decrement first, which on a loaded machine (the waiting thread off its
# core) is up to half of them: 10 of 100 shows the mechanism works.  Every
# dispatch is recorded once, and the program's own waits see completion.
. "$TOP/tests/e2e/02-tracer.inc"
SIMGPU_KERNEL_NS=20000 traced "$PROGS/tp_stretch" wait 100 >out
f=$(trace_of)
pid=${f##*.}
completed_by "$f" $pid "the waiting thread"
