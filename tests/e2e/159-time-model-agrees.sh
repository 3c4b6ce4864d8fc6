# Every output of rtg-convert gives the same time model: one trace of
# tests/progs/tp_hip_mix (two simulated GPUs, two streams each, kernels,
# barriers waiting on the other stream, copies, host sleeps). Per (process,
# GPU): span, busy (kernels), copy busy and idle from --analyze=FILE.json
# equal those of --gaps, --stats (gpu_time_stats.csv), --summary (GPU_TIME),
# the SQLite table rtg_gpu_time and busy view, and the JSON's gap slices
# (-g: their durations add up to idle, their causes to --analyze's), to
# the nanosecond where the output has it, else to its rounding (--gaps,
# --summary: 0.001 us; --gaps per queue: the busy row's 0.1 us). Per
# queue, --gaps and the JSON's queue gap slices agree with --analyze's
# queues. Each report's rows add up to 100 % (to 0.01 % a row).
. "$TOP/tests/simgpu/env.sh"
SIMGPU_GPUS=2 SIMGPU_SDMA_MBPS=1600 SIMGPU_KERNEL_NS=300000 HSA_TOOLS_LIB="$B/rtg_tracer.so" \
  "$B/progs/tp_hip_mix"
echo "exit $?"
"$B/rtg-convert" -q --analyze=a.json --gaps=gaps.txt --stats=st --summary -g -o t.json \
  --sqlite t.db rtg_trace.txt.* >summary.txt
echo "convert exit $?"
sqlite3 -separator ' ' t.db 'SELECT pid, gpuId, span, busy, copyBusy, idle FROM rtg_gpu_time' >db.txt
sqlite3 -separator ' ' t.db 'SELECT gpuId, GpuTime, WallTime, Busy FROM busy' >busy.txt
python3 - <<'PY'
import csv, json, re
from collections import defaultdict

ok = True
def check(what, a, b, tol=0.0):
    global ok
    if abs(a - b) > tol + 1e-9:
        print(f"DIFFER {what}: {a} vs {b}")
        ok = False

an = json.load(open("a.json"))
gpus = {g["gpu"]: g for g in an["gpus"]}
print("analyze gpus:", " ".join(sorted(gpus)),
      "queues:", " ".join(str(len(gpus[k]["queues"])) for k in sorted(gpus)))
for k, g in sorted(gpus.items()):
    print(f"{k}: kernels {'yes' if g['busy_us'] > 0 else 'no'},",
          f"copies {'yes' if g['copy_busy_us'] > 0 else 'no'},",
          f"idle {'yes' if g['idle_us'] > 0 else 'no'}")
    check(f"{k} analyze span = busy + idle", g["span_us"], g["busy_us"] + g["idle_us"], 0.0015)
    check(f"{k} analyze causes sum", sum(g["idle_causes"].values()), g["idle_us"], 0.008)

# --stats: gpu_time_stats.csv, ns
rows = list(csv.DictReader(open("st/gpu_time_stats.csv")))
print("stats rows:", len(rows))
for r in rows:
    g = gpus[r["Gpu"]]
    for col, key in (("SpanNs", "span_us"), ("BusyNs", "busy_us"), ("CopyBusyNs", "copy_busy_us"),
                     ("IdleNs", "idle_us")):
        check(f"stats {r['Gpu']} {col}", int(r[col]) / 1000.0, g[key], 0.0005)
    check(f"stats {r['Gpu']} percentages", float(r["BusyPercentage"]) + float(r["IdlePercentage"]), 100.0, 0.0)

# --summary: GPU_TIME
summ = open("summary.txt").read().split("GPU_TIME:")[1].splitlines()[2:]
n = 0
for line in summ:
    m = re.match(r"\s+\d+ (GPU\d+) .*?\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)%\s+([\d.]+)\s+([\d.]+)%\s+([\d.]+)$", line)
    if not m:
        break
    n += 1
    g = gpus[m.group(1)]
    check(f"summary {m.group(1)} span", float(m.group(2)), g["span_us"], 0.0015)
    check(f"summary {m.group(1)} busy", float(m.group(3)), g["busy_us"], 0.0015)
    check(f"summary {m.group(1)} idle", float(m.group(5)), g["idle_us"], 0.0015)
    check(f"summary {m.group(1)} copy busy", float(m.group(7)), g["copy_busy_us"], 0.0015)
    check(f"summary {m.group(1)} percentages", float(m.group(4)) + float(m.group(6)), 100.0, 0.0)
print("summary rows:", n)

# --gaps
cur, queue, tables = None, None, defaultdict(list)
gq = {}
for line in open("gaps.txt"):
    m = re.match(r"Resource=(GPU\d+) ", line)
    if m:
        cur, queue = m.group(1), None
        continue
    m = re.match(r"  busy ([\d.]+) us, copy busy ([\d.]+) us \(beside busy\), idle ([\d.]+) us", line)
    if m:
        g = gpus[cur]
        check(f"gaps {cur} busy", float(m.group(1)), g["busy_us"], 0.0015)
        check(f"gaps {cur} copy busy", float(m.group(2)), g["copy_busy_us"], 0.0015)
        check(f"gaps {cur} idle", float(m.group(3)), g["idle_us"], 0.0015)
    m = re.match(r"  span ([\d.]+) us", line)
    if m:
        check(f"gaps {cur} span", float(m.group(1)), gpus[cur]["span_us"], 0.0015)
    m = re.match(r"  queue (\d+): span ([\d.]+) us", line)
    if m:
        queue = int(m.group(1))
        q = [q for q in gpus[cur]["queues"] if q["queue"] == queue][0]
        check(f"gaps {cur} queue span", float(m.group(2)), q["span_us"], 0.0015)
        gq[(cur, queue)] = q
    m = re.match(r"\s+([\d.]+)%\s+([\d.]+)\s+\d+ .*  (busy \(kernels\)|gap .*)$", line)
    if m:
        tables[(cur, queue)].append(float(m.group(1)))
        if m.group(3).startswith("busy"):
            want = gpus[cur]["busy_us"] if queue is None else gq[(cur, queue)]["busy_us"]
            check(f"gaps {cur} {queue} busy row", float(m.group(2)), want, 0.05)
print("gaps tables:", len(tables))
for key, pcts in tables.items():
    check(f"gaps {key} rows add up", sum(pcts), 100.0, 0.01 * len(pcts))

# SQLite
db = [l.split() for l in open("db.txt")]
print("sqlite rows:", len(db))
for pid, gpu, span, busy, copy, idle in db:
    g = gpus[f"GPU{gpu}"]
    for what, v, key in (("span", span, "span_us"), ("busy", busy, "busy_us"),
                         ("copy busy", copy, "copy_busy_us"), ("idle", idle, "idle_us")):
        check(f"sqlite GPU{gpu} {what}", int(v) / 1000.0, g[key], 0.0005)
for gpu, gt, wall, frac in (l.split() for l in open("busy.txt")):
    g = gpus[f"GPU{gpu}"]
    check(f"sqlite busy view GPU{gpu}", int(gt) / 1000.0, g["busy_us"], 0.0005)
    check(f"sqlite busy view GPU{gpu} wall", int(wall) / 1000.0, g["span_us"], 0.0005)

# the JSON's gap slices, by track (thread_name), in ns
doc = json.load(open("t.json"))
evs = doc["traceEvents"]
names = {(e["pid"], e["tid"]): e["args"]["name"] for e in evs
         if e.get("ph") == "M" and e.get("name") == "thread_name"}
idle = defaultdict(int)
causes = defaultdict(lambda: defaultdict(int))
details = defaultdict(lambda: defaultdict(int))  # track -> (cause, detail) -> ns
for e in evs:
    if e.get("cat") != "gap":
        continue
    track = names[(e["pid"], e["tid"])]
    ns = round(e["dur"] * 1000)
    idle[track] += ns
    causes[track][e["name"]] += ns
    details[track][(e["name"], e.get("args", {}).get("detail", ""))] += ns
tracks = 0
details_checked = set()
for track, ns in sorted(idle.items()):
    m = re.match(r"(GPU\d+) .*?(?: queue (\d+))? gaps$", track)
    g = gpus[m.group(1)]
    tracks += 1
    if m.group(2) is None:
        check(f"json {track} idle", ns / 1000.0, g["idle_us"], 0.0005)
        for c, v in causes[track].items():
            check(f"json {track} {c}", v / 1000.0, g["idle_causes"][c], 0.0005)
        # the slices' details: host time by call, dependency by what it
        # waited for, as --analyze's JSON has them
        for c in ("host_sync", "host_api"):
            for call, us in g["host_by_call"][c].items():
                check(f"json {track} {c} in {call}", details[track][(c, "in " + call)] / 1000.0,
                      us, 0.0005)
        for what, us in g["dependency_on"].items():
            got = details[track][("dependency", "waiting for " + what)] / 1000.0
            check(f"json {track} dependency on {what}", got, us, 0.0005)
            details_checked.add(track)
    else:
        q = [q for q in g["queues"] if q["queue"] == int(m.group(2))][0]
        check(f"json {track} idle", ns / 1000.0, q["idle_us"], 0.0005)
        for what, us in q["dependency_on"].items():
            got = details[track][("dependency", "waiting for " + what)] / 1000.0
            check(f"json {track} dependency on {what}", got, us, 0.0005)
            details_checked.add(track)
print("json gap tracks:", tracks)
print("tracks whose dependency slices name what they waited for:", len(details_checked) > 0)
print("all agree" if ok else "they differ")
PY
