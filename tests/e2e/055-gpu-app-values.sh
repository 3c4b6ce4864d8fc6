# While an op runs, the tracer raises its signal by one (the hardware's
# decrement then leaves 1, and the tracer reads the op's times before the
# application can see 0).  The application must not see that: its loads
# read the value it set, its waits decide on that value and return it, at
# the time they would untraced (tp_values: a 200 ms kernel on a signal of
# value 1; a wait for "not 1" times out, one for "below 2" holds at once,
# hsa_amd_signal_wait_any too, and the completion comes at the kernel's
# end; handlers registered after the submit run on the application's
# value: "not 1" once at the kernel's end with 0, "at least 2" only when
# the program stores 5).  The traced run prints exactly what the untraced one does.
. "$TOP/tests/e2e/02-tracer.inc"
export SIMGPU_KERNEL_NS=200000000
"$PROGS/tp_values" >untraced
echo "untraced exit $?"
cat untraced
traced "$PROGS/tp_values" >traced
echo "traced exit $?"
cmp -s untraced traced && echo "traced: the same" || diff untraced traced
summary "$(trace_of)" | sed 's/ hsa_calls.*//'
