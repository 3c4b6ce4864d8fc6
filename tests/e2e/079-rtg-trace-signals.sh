# rtg-trace forwards SIGTERM, SIGINT and SIGHUP sent to it to the
# application, waits for it, converts what it wrote and ends as it did: of
# the same signal (128+N for the shell), or with its exit status when it
# caught the signal.  A background job of a script starts with SIGINT
# ignored: env --default-signal gives rtg-trace (and the application) the
# default, as a terminal would.
. "$TOP/tests/simgpu/env.sh"
PROGS="$B/progs"
kernels() { grep -c '"cat":"kernel"' "$1"; }
# run SIG MODE: tp_crash 3 MODE under rtg-trace -c, SIG sent to rtg-trace once ready
run() {
  rm -f rtg_trace.txt.* run.json out err
  env --default-signal=INT "$B/rtg-trace" -c run.json -- "$PROGS/tp_crash" 3 "$2" >out 2>err &
  pid=$!
  i=0
  while ! grep -q ready out 2>/dev/null && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
  kill -"$1" $pid
  wait $pid
  echo "kill -$1, $2: status $?, $(grep -v ready out) $(cat err), kernels in run.json: $(kernels run.json)," \
    "summary: $(grep -c ' summary dispatches:3 ' rtg_trace.txt.*)"
}
run TERM wait
run INT wait
run HUP wait
run TERM handle
echo "-- the launcher is not left behind: no process of the run remains"
run TERM wait >/dev/null
pgrep -f "tp_crash 3 wait" >/dev/null && echo "still running" || echo "none"
