# rtg-trace forwards SIGTERM, SIGINT and SIGHUP sent to it to the
# application, waits for it, converts what it wrote and ends as it did: of
# the same signal (128+N for the shell), or with its exit status when it
# caught the signal.  A background job of a script starts with SIGINT
# ignored: env --default-signal gives rtg-trace (and the application) the
# default, as a terminal would.  ^C on a terminal (a pty) reaches the
# application once: rtg-trace does not send it a second time.
. "$TOP/tests/simgpu/env.sh"
PROGS="$B/progs"
# pgrep without the preloads env.sh exports: under SAN=address they start
# with libasan, and procps' tools (libproc2) then block at start in glibc's
# textdomain lock, every run, whatever they look for.
pgrep() { LD_PRELOAD= command pgrep "$@"; }
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
echo "-- ^C on the terminal reaches the program once (not forwarded a second time)"
python3 - "$B/rtg-trace" <<'PY'
import os, pty, select, sys, time
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[1], ["rtg-trace", "--", "sh", "-c",
             'trap "echo got INT" INT; echo ready; sleep 1 & wait; sleep 1 & wait; echo done'])
out = b""
def read(seconds):
    global out
    end = time.time() + seconds
    while time.time() < end:
        if select.select([fd], [], [], 0.1)[0]:
            try:
                out += os.read(fd, 1000)
            except OSError:
                return
while b"ready" not in out and len(out) < 10000:
    read(0.1)
os.write(fd, b"\x03")
read(4)
_, st = os.waitpid(pid, 0)
lines = [l for l in out.decode().replace("\r", "").replace("^C", "").split("\n") if l]
print(" ".join(lines) + ", exit status %d" % os.waitstatus_to_exitcode(st))
PY
