# SIMGPU_SPIN_US: an idle simulated queue that looks for its next packet
# without sleeping starts a kernel submitted shortly after the one before
# it completed at once, not at the worker's next poll.  With polls 200 ms
# apart (SIMGPU_POLL_US, and SIMGPU_IDLE_US for a parked queue; active
# waits, which never wake parked queues) and the next kernel submitted
# 1 ms after each completion (tp_wait's TP_GAP_NS), the kernels start about
# 199 ms after their submit without spinning, and within a few ms with 1 s
# of spinning; the threshold, 100 ms, leaves room for a loaded machine.
. "$TOP/tests/simgpu/env.sh"
export SIMGPU_POLL_US=200000 SIMGPU_IDLE_US=200000 SIMGPU_KERNEL_NS=20000 TP_GAP_NS=1000000
late() { # the median submit-to-start time, against 100 ms
  ms=$(sed -n 's/^start_ns \([0-9]*\) .*/\1/p' "$1" | awk '{ printf "%d", $1 / 1e6 }')
  [ "$ms" -ge 100 ] && echo "100 ms or more" || echo "under 100 ms"
}
"$B/progs/tp_wait" scacquire-active 2t fresh 6 >poll.out
SIMGPU_SPIN_US=1000000 "$B/progs/tp_wait" scacquire-active 2t fresh 6 >spin.out
echo "polling: kernels start $(late poll.out) after their submit"
echo "spinning: kernels start $(late spin.out) after their submit"
