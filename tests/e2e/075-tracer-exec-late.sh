# An object loaded after the tracer (dlopen) has its exec* hooked too, once
# the writer has seen it on two of its wake-ups (never while dlopen may
# still be relocating it, got_hook.c): its exec loses nothing and the image
# before it ends with its summary.
. "$TOP/tests/e2e/02-tracer.inc"
traced "$PROGS/tp_exec" 40 wait late
echo "exit status $?"
f=$(ls rtg_trace.txt.*)
kinds "$f" | grep -E '^(dispatch|rtg_summary) '
summary "$f" | sed 's/ hsa_calls.*//'
