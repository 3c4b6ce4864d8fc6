# rtg-convert --analyze against ground truth: tests/progs/tp_hip_idle
# injects one cause of GPU0's idle time per run and times it itself (host
# CPU work between launches, a sync on a long kernel of GPU1, hipMalloc/
# hipFree in the loop). On each trace: >= 95 % (and <= 105 %) of the
# injected time lands in the right cause (for host_sync and host_api: in
# the calls the program made), the causes add up to the idle time within
# 0.1 % (the JSON's microseconds), and the verdict names the cause.
. "$TOP/tests/simgpu/env.sh"
# a parked simulated queue wakes within 100 us (2 ms by default), so that
# the launch latency of the kernel before each injection stays small
export SIMGPU_IDLE_US=100
run() { # mode: trace tp_hip_idle MODE in ./MODE
  mkdir "$1" && (cd "$1" && HSA_TOOLS_LIB="$B/rtg_tracer.so" "$B/progs/tp_hip_idle" "$1" >out.txt)
}
run cpu
SIMGPU_GPUS=2 SIMGPU_KERNEL_TIMES=longwork=20000000 run sync
run malloc
for m in cpu sync malloc; do
  echo "== $m"
  "$B/rtg-convert" -q --analyze=$m.json $m/rtg_trace.txt.* >$m.txt
  echo "exit $?"
  # the verdict of GPU0, numbers out
  grep '^GPU0 (pid' $m.txt | sed 's/[0-9][0-9.]* \(s\|ms\|us\|ns\)/T/g; s/[0-9][0-9.]* %/N %/g; s/x [0-9]*/x N/; s/pid [0-9]*/pid P/; s/tid [0-9]*/tid T/'
  python3 - $m.json $m/out.txt <<'PY'
import json, sys
gpus = json.load(open(sys.argv[1]))["gpus"]
words = open(sys.argv[2]).read().split()  # injected CAUSE NS ns in N parts
cause, injected = words[1], int(words[2]) / 1000.0
g = [g for g in gpus if g["gpu"] == "GPU0"][0]
causes = g["idle_causes"]
print("gpus:", " ".join(sorted(x["gpu"] for x in gpus)))
print("causes:", " ".join(causes))
total = sum(causes.values())
print("causes sum to idle within 0.1 %:", abs(total - g["idle_us"]) <= 0.001 * g["idle_us"])
print("idle = span - busy:", abs(g["span_us"] - g["busy_us"] - g["idle_us"]) < 0.002)
calls = {"host_sync": ["hipDeviceSynchronize"], "host_api": ["hipMalloc", "hipFree"]}
if cause in calls:
    got = sum(g["host_by_call"][cause].get(c, 0) for c in calls[cause])
    what = cause + " in " + "+".join(calls[cause])
else:
    got, what = causes[cause], cause
ratio = got / injected
print("injected in %s: %s" % (what, "95-105 %" if 0.95 <= ratio <= 1.05 else "%.1f %%" % (100 * ratio)))
print("%s: %.0f us injected, %.0f us attributed, ratio %.4f" % (what, injected, got, ratio), file=sys.stderr)
PY
done
