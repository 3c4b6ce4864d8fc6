# ROCR's queue destroy can lose its wakeup (sg_destroy_race.c: ROCR
# without KFD's event age); SIMGPU_WAIT_ENTRY_US=50000 makes it happen
# every time.  Untraced the program hangs (killed after 5 s: the race is
# the runtime's); traced, rtg wakes the destroyer after about a second, says
# so once on stderr and counts it in the summary (once, or more when a
# wakeup came before the destroyer slept).  Without the knob the
# destroy returns by itself and rtg does nothing.  ROCR >= 6.3 (sid,
# experimental) passes KFD the event age, so its late wait sees the set:
# nothing hangs there, and rtg does nothing either.
. "$TOP/tests/e2e/02-tracer.inc"
SIMGPU_WAIT_ENTRY_US=50000 timeout -s KILL 5 "$SIMGPU/sg_destroy_race" > /dev/null 2>&1
echo "untraced, late waits: exit $?"
SIMGPU_WAIT_ENTRY_US=50000 traced timeout -s KILL 30 "$SIMGPU/sg_destroy_race" 2> err.txt
echo "traced, late waits: exit $?"
echo "messages: $(grep -c 'hsa_queue_destroy had waited .* ms for the runtime.s handler: woke it' err.txt)"
summary "$(trace_of)" | tr ' ' '\n' | awk -F: '$1 == "destroy_wakeups" { n = $2 }
  END { print (n >= 1 ? "destroy_wakeups: at least 1" : "destroy_wakeups: " n + 0) }'
rm -f rtg_trace.txt.*
traced "$SIMGPU/sg_destroy_race" 2> err.txt
echo "traced: exit $?"; sed "s/^/stderr: /" err.txt
summary "$(trace_of)" | tr ' ' '\n' | grep destroy_wakeups || echo "no destroy_wakeups"
