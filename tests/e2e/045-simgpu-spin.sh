# SIMGPU_SPIN_US: an idle simulated queue that looks for its next packet
# without sleeping starts a kernel submitted shortly after the one before
# it completed at once, not at the worker's next poll.  With polls 50 ms
# apart and the next kernel submitted 1 ms after each completion
# (tp_wait's TP_GAP_NS), the kernels start about 49 ms after their submit
# without spinning, and within far less than that with 200 ms of spinning
# (the threshold, 20 ms, leaves room for a loaded machine).
. "$TOP/tests/simgpu/env.sh"
export SIMGPU_POLL_US=50000 SIMGPU_KERNEL_NS=20000 TP_GAP_NS=1000000
late() { # the median submit-to-start time, against 20 ms
  ms=$(sed -n 's/^start_ns \([0-9]*\) .*/\1/p' "$1" | awk '{ printf "%d", $1 / 1e6 }')
  [ "$ms" -ge 20 ] && echo "20 ms or more" || echo "under 20 ms"
}
"$B/progs/tp_wait" scacquire-blocked 2t fresh 12 >poll.out
SIMGPU_SPIN_US=200000 "$B/progs/tp_wait" scacquire-blocked 2t fresh 12 >spin.out
echo "polling: kernels start $(late poll.out) after their submit"
echo "spinning: kernels start $(late spin.out) after their submit"
