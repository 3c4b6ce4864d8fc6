# rtg-convert --analyze against ground truth: examples/hip_idle_causes
# injects one cause of GPU0's idle time per run and times it itself (host
# CPU work between launches, a sync on a long kernel of GPU1, hipMalloc/
# hipFree in the loop, a copy alone, a cross-stream dependency, a sync
# after every launch, tiny kernels). On each trace: >= 95 % (and <= 105 %)
# of the injected time lands in the right cause (for host_sync and
# host_api: in the calls the program made; for the dependency: on the
# waiting stream's queue), the causes add up to the idle time within 0.1 %
# (the JSON's microseconds) on the GPU and on each queue, the verdict names
# the cause, and the rule of the pattern fires (for a sync after every
# launch: with the synchronisations' time; for copies from pageable memory,
# with HIP's arguments traced: with the copy calls' time, and not for the
# pinned copies). The critical path's parts add
# up to its length; in the chain, whose long kernels the host waits for,
# they are on it (5 x 50 ms) and its what-if of them twice as fast saves
# half of that.
. "$TOP/tests/simgpu/env.sh"
# a parked simulated queue wakes within 100 us (2 ms by default), so that
# the launch latency of the kernel before each injection stays small
export SIMGPU_IDLE_US=100
run() { # mode: trace hip_idle_causes MODE in ./MODE
  mkdir "$1" && (cd "$1" && HSA_TOOLS_LIB="$B/rtg_tracer.so" "$B/examples/hip_idle_causes" "$1" >out.txt)
}
run cpu
SIMGPU_GPUS=2 SIMGPU_KERNEL_TIMES=longwork=20000000 run sync
run malloc
SIMGPU_SDMA_MBPS=1600 RTG_HIP_API_ARGS=1 run copy
# (50 ms kernels: a loaded host's wake-ups after each, in the program's own
# timing, stay within 5 %)
SIMGPU_KERNEL_TIMES=longwork=50000000 run chain
# (2 ms kernels: each synchronisation lasts long enough that a busy host's
# preemptions between the program's clock and the call stay within 5 %)
SIMGPU_KERNEL_TIMES=work=2000000 run syncloop
SIMGPU_KERNEL_TIMES=work=50 run tiny
SIMGPU_SDMA_MBPS=1600 RTG_HIP_API_ARGS=1 run pageable
for m in cpu sync malloc copy chain syncloop tiny pageable; do
  echo "== $m"
  # copy: from the loop on, after the warm-up copy (trace times are boot
  # time; --start takes microseconds)
  # (all of it too, as $m.full.json: the allocations before the loop are
  # what the pageable_copy rule needs)
  win=""
  [ $m = copy ] && win="--start $(($(sed -n 's/^loop from \([0-9]*\) ns$/\1/p' $m/out.txt) / 1000))"
  "$B/rtg-convert" -q --analyze=$m.json $win $m/rtg_trace.txt.* >$m.txt
  echo "exit $?"
  "$B/rtg-convert" -q --analyze=$m.full.json $m/rtg_trace.txt.* >/dev/null
  # the verdict of GPU0 where the injected cause is the GPU's (a chain is
  # one queue's, a sync loop or tiny kernels leave little idle), numbers out
  case $m in
  chain) grep '^    queue .*: dependency' $m.txt | sed 's/queue [0-9]*/queue Q/g' ;;
  syncloop | tiny | pageable) ;;
  *) grep '^GPU0 (pid [0-9]*): idle' $m.txt ;;
  esac | sed 's/[0-9][0-9.]* \(s\|ms\|us\|ns\)/T/g; s/[0-9][0-9.]* %/N %/g; s/x [0-9]*/x N/; s/pid [0-9]*/pid P/; s/tid [0-9]*/tid T/; s/ [0-9]* kernels/ N kernels/; s/  */ /g'
  python3 - $m.json $m/out.txt <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
gpus = doc["gpus"]
words = open(sys.argv[2]).read().split()  # injected CAUSE NS ns in N parts
cause, injected = words[1], int(words[2]) / 1000.0
g = [g for g in gpus if g["gpu"] == "GPU0"][0]
causes = g["idle_causes"]
print("gpus:", " ".join(sorted(x["gpu"] for x in gpus)))
print("causes:", " ".join(causes))
def adds_up(x):
    return abs(sum(x["idle_causes"].values()) - x["idle_us"]) <= 0.001 * x["idle_us"] and \
        abs(x["span_us"] - x["busy_us"] - x["idle_us"]) < 0.002
print("causes sum to idle within 0.1 %:", adds_up(g))
print("each queue's causes sum to its idle:", all(adds_up(q) for q in g["queues"]))
fired = {r["id"]: r for r in doc["rules"] if r["fired"] and r.get("gpu", "GPU0") == "GPU0"}
calls = {"host_sync": ["hipDeviceSynchronize"], "host_api": ["hipMalloc", "hipFree"]}
rule = {"host_api": "alloc_in_loop", "sync_after_launch": "sync_after_launch",
        "launch_bound": "launch_bound", "pageable_copy": "pageable_copy"}.get(cause)
if cause in calls:
    got = sum(g["host_by_call"][cause].get(c, 0) for c in calls[cause])
    what = cause + " in " + "+".join(calls[cause])
elif cause == "dependency":  # on the queue of the waiting stream: the one waiting most
    got = max(q["idle_causes"]["dependency"] for q in g["queues"])
    what = "dependency of a queue"
elif cause == "launch_bound":  # 500 tiny kernels: nearly all shorter than their launch
    got = injected if rule in fired and fired[rule]["count"] >= 450 else 0
    what = "launch_bound kernels"
elif cause in ("sync_after_launch", "pageable_copy"):
    got = fired[rule]["cost_us"] if rule in fired else 0
    what = "rule %s's cost" % rule
else:
    got, what = causes[cause], cause
ratio = got / injected
print("injected in %s: %s" % (what, "95-105 %" if 0.95 <= ratio <= 1.05 else "%.1f %%" % (100 * ratio)))
if rule:
    print("rule %s fired:" % rule, rule in fired)
if cause == "copy_only":  # from pinned memory: no pageable copy, all of them checked
    full = json.load(open(sys.argv[1].replace(".json", ".full.json")))
    r = [r for r in full["rules"] if r["id"] == "pageable_copy"][0]
    print("pageable_copy: fired %s, %d copies checked, %d unchecked" % (r["fired"], r["of"], r["unchecked"]))
cps = doc["critical_path"]
print("critical path parts add up:", len(cps) == 1 and
      abs(sum(cps[0]["parts_us"].values()) - cps[0]["length_us"]) < 0.002)
if cause == "dependency":  # the waiting queue waits for longwork on the other queue
    q = max(g["queues"], key=lambda q: q["idle_causes"]["dependency"])
    on = sum(v for k, v in q["dependency_on"].items() if k.startswith("longwork"))
    print("the waiting queue waits for longwork on another queue:",
          "95-105 %" if 0.95 <= on / q["idle_causes"]["dependency"] <= 1.05 else
          "%.1f %%: %s" % (100 * on / q["idle_causes"]["dependency"], q["dependency_on"]),
          all("queue %d" % q["queue"] not in k for k in q["dependency_on"]))
if cause == "dependency":  # 5 x 50 ms of longwork, waited for by the host
    cp = cps[0]
    lw = sum(k["us"] for k in cp["kernels"] if k["name"].startswith("longwork"))
    band = lambda x: "95-105 %" if 0.95 <= x <= 1.05 else "%.1f %%" % (100 * x)
    print("longwork on the critical path:", band(lw / 250000.0))
    w = [w for w in cp["whatif"] if w["twice_as_fast"].startswith("longwork")]
    saved = cp["length_us"] - w[0]["length_us"] if w else 0
    print("longwork twice as fast saves 125 ms:", band(saved / 125000.0))
print("%s: %.0f us injected, %.0f us attributed, ratio %.4f" % (what, injected, got, ratio), file=sys.stderr)
PY
done
# all eight processes in one run: each the same as alone, side by side
echo "== all"
"$B/rtg-convert" -q --analyze=all.json --html all.html */rtg_trace.txt.* >all.txt
echo "exit $?"
grep -c '^  *[0-9][0-9]*  *[^ ]*  *1  *+' all.txt
python3 - <<'PY'
import json
alone = {}
for m in "cpu sync malloc copy chain syncloop tiny pageable".split():
    for g in json.load(open(m + ".full.json"))["gpus"]:
        alone[(g["pid"], g["gpu"])] = g
doc = json.load(open("all.json"))
together = {(g["pid"], g["gpu"]): g for g in doc["gpus"]}
print("every GPU as alone:", together == alone)
procs = doc["processes"]
print("processes:", len(procs))
last = max(procs, key=lambda p: p["end_ns"])["pid"]
most = max(procs, key=lambda p: p["idle_after_startup_us"])["pid"]
print("finishes_last and waits_most:", doc["finishes_last"] == last and doc["waits_most"] == most)
print("critical paths:", len(doc["critical_path"]))
# the HTML report's gaps are each GPU's idle pieces after startup: they
# add up to its idle time less startup (a queue's pieces are not the GPU's)
html = open("all.html").read()
meta = html.split('id="rtg-meta">', 1)[1].split("</script>", 1)[0]
devs = {(d["pid"], d["gpu"]): d for d in json.loads(meta)["devs"]}
print("html gaps are the idle after startup:", sorted(devs) == sorted(together) and all(
    abs(sum(devs[k]["gap_ns"]) / 1000.0 - (g["idle_us"] - g["idle_causes"]["startup"])) < 0.002
    for k, g in together.items()))
PY
# the tracer names the thread that waited for each op (waiter:): each
# synchronisation of the sync loop and the chain with an op ending inside
# it has one its own thread waited for (the critical path's wake edges)
for m in syncloop chain; do
  python3 - $m/rtg_trace.txt.* <<'PY'
import re, sys
syncs, ops = [], []
for f in sys.argv[1:]:
    for line in open(f):
        m = re.match(r"HIP: pid:\d+ tid:(\d+) (hip\w*Synchronize)\S* .*@(\d+) \+(\d+)", line)
        if m:
            syncs.append((int(m[1]), int(m[3]), int(m[3]) + int(m[4])))
        m = re.search(r" (dispatch|barrier|copy) .* stop:(\d+)", line)
        if m and " tick:" in line or m and m[1] != "dispatch":
            w = re.search(r" waiter:(\d+)", line)
            ops.append((int(m[2]), int(w[1]) if w else 0))
inside = [(t, [o for o in ops if s <= o[0] <= e]) for t, s, e in syncs]
inside = [(t, v) for t, v in inside if v]
print("syncs waited:", len(inside) >= 5 and all(any(w == t for _, w in v) for t, v in inside))
PY
done
