# Barrier-AND and barrier-OR packets: one record each with op and deps;
# the program's own ordering checks still pass with the tracer, and it sees
# what it sees untraced: a 20 ms wait on a barrier still held times out
# with the value 1 (the tracer's raise of the barrier's signal is not the
# application's to see: 055).
. "$TOP/tests/e2e/02-tracer.inc"
SIMGPU_KERNEL_NS=3000 traced "$SIMGPU/sg_barrier"
f=$(trace_of)
kinds "$f"
grep ' barrier ' "$f" | sed 's/.* op:\([a-z]*\).*/\1/' | sort | uniq -c
grep ' barrier ' "$f" | awk '{ n = 0; for (i = 5; i <= NF; i++) if ($i ~ /^dep[1-5]:/ && $i !~ /:0$/) n++; print "deps", n }' | sort | uniq -c
durations "$f" dispatch
echo "stop before start: $(bad_times "$f")"
