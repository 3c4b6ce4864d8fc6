# rtg-convert --analyze on a plain HSA program (examples/hsa_idle_causes):
# 5 x 20 ms of the program's own time between dispatches lands in
# host_outside_api, and 5 waits on a 20 ms kernel of GPU1 in host_sync in
# hsa_signal_wait_scacquire, each within 95-105 % of what the program
# timed, with the HSA calls traced (RTG_HSA_API_FILTER=all). Without them
# the verdict says that the host's time cannot be split.
. "$TOP/tests/simgpu/env.sh"
export SIMGPU_GPUS=2 SIMGPU_KERNEL_NS=20000000 SIMGPU_IDLE_US=100
run() { # dir mode
  mkdir "$1" && (cd "$1" && HSA_TOOLS_LIB="$B/rtg_tracer.so" "$B/examples/hsa_idle_causes" "$2" >out.txt)
}
RTG_HSA_API_FILTER=all run cpu cpu
RTG_HSA_API_FILTER=all run wait wait
run untraced-calls wait
for m in cpu wait untraced-calls; do
  echo "== $m"
  "$B/rtg-convert" -q --analyze=$m.json $m/rtg_trace.txt.* >$m.txt
  echo "exit $?"
  grep '^GPU0 (pid [0-9]*): idle' $m.txt | sed 's/[0-9][0-9.]* \(s\|ms\|us\|ns\)/T/g; s/[0-9][0-9.]* %/N %/g; s/x [0-9]*/x N/; s/pid [0-9]*/pid P/; s/tid [0-9]*/tid T/'
  python3 - $m.json $m/out.txt <<'PY'
import json, sys
g = [g for g in json.load(open(sys.argv[1]))["gpus"] if g["gpu"] == "GPU0"][0]
words = open(sys.argv[2]).read().split()  # injected CAUSE NS ns in N parts
cause, injected = words[1], int(words[2]) / 1000.0
print("causes sum to idle within 0.1 %:", abs(sum(g["idle_causes"].values()) - g["idle_us"]) <= 0.001 * g["idle_us"])
# the injected waits are the program's hsa_signal_wait_scacquire calls
# (GPU0's own use hsa_signal_wait_relaxed)
got = g["host_by_call"]["host_sync"].get("hsa_signal_wait_scacquire", 0) if cause == "host_sync" else g["idle_causes"][cause]
ratio = got / injected
print("injected in %s: %s" % (cause, "95-105 %" if 0.95 <= ratio <= 1.05 else "%.1f %%" % (100 * ratio)))
print("%s: %.0f us injected, ratio %.4f" % (cause, injected, ratio), file=sys.stderr)
PY
done
