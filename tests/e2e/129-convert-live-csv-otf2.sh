# Record live with Debian's real HIP 5.2.3 on the simulated GPU (HIP and HSA
# API, 2 GPUs, streams, copies), then --csv, --otf2 and the JSON from the
# same traces: per process, a CSV row for every kernel, HIP call, HSA call
# and copy record of the trace; every kernel's Correlation_Id finds the HIP
# call that launched it; the HSA domains follow the HSA tables; the OTF2
# archive has, per region, the JSON's slices as ENTER/LEAVE pairs, nested in
# time order, and a CPU_THREAD location per thread that made calls.
. "$TOP/tests/simgpu/env.sh"
SIMGPU_GPUS=2 RTG_HSA_API_FILTER=all HSA_TOOLS_LIB="$B/rtg_tracer.so" "$B/examples/hip_streams" >/dev/null 2>&1
HSA_TOOLS_LIB="$B/rtg_tracer.so" "$B/simgpu/sg_hip" >/dev/null 2>&1
echo "traces: $(ls rtg_trace.txt.* | wc -l)"
"$B/rtg-convert" -q -o out.json --csv csv --otf2 o2 rtg_trace.txt.*
echo "exit $?"
otf2-print o2/trace.otf2 >events.txt || echo "otf2-print failed"
otf2-print -G o2/trace.otf2 >defs.txt || echo "otf2-print -G failed"
python3 - <<'EOF'
import csv, glob, json, re

def rows(pid, kind):
    fs = glob.glob("csv/*/%s_%s.csv" % (pid, kind))
    if not fs:
        return []
    with open(fs[0], newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))

ok = {"kernel": True, "hip": True, "hsa": True, "copy": True}
joined = total = 0
domains = set()
threads = set()
for t in sorted(glob.glob("rtg_trace.txt.*")):
    pid = t.rsplit(".", 1)[1]
    n = {"kernel": 0, "hip": 0, "hsa": 0, "copy": 0}
    for line in open(t, encoding="utf-8", errors="replace"):
        m = re.match(r"(HIP|HSA): pid:\d+ tid:(\d+) (\S+)", line)
        if not m:
            continue
        if m.group(1) == "HIP":
            n["hip"] += 1
            threads.add((pid, m.group(2)))
        elif m.group(3) == "dispatch" and " start:" in line:
            n["kernel"] += 1
        elif m.group(3) == "copy":
            n["copy"] += 1
        elif m.group(3).startswith("hsa_"):
            n["hsa"] += 1
            threads.add((pid, m.group(2)))
    got = {"kernel": rows(pid, "kernel_trace"), "hip": rows(pid, "hip_api_trace"),
           "hsa": rows(pid, "hsa_api_trace"), "copy": rows(pid, "memory_copy_trace")}
    for k in n:
        ok[k] &= len(got[k]) == n[k]
    calls = {r["Correlation_Id"]: r["Function"] for r in got["hip"]}
    for r in got["kernel"]:
        total += 1
        joined += calls.get(r["Correlation_Id"], "").startswith("hip")
    domains |= {r["Domain"] for r in got["hsa"]}
for k in ok:
    print("%-6s rows = the trace's records, per process: %s" % (k, "yes" if ok[k] else "NO"))
print("kernels whose Correlation_Id finds their HIP call: %s" % ("all" if joined == total and total else "%d of %d" % (joined, total)))
print("HSA domains:", ", ".join(sorted(domains)))

per_json = {}
for e in json.load(open("out.json"))["traceEvents"]:
    if e.get("ph") == "X":
        name = e["args"]["kind"] if e["cat"] == "copy" else e["name"]
        per_json[name] = per_json.get(name, 0) + 1
per_otf2, st, last, bad = {}, {}, {}, 0
for line in open("events.txt"):
    m = re.match(r'(ENTER|LEAVE)\s+(\d+)\s+(\d+)\s+Region: "(.*)" <\d+>$', line.rstrip("\n"))
    if not m:
        continue
    k, loc, ts, name = m.group(1), m.group(2), int(m.group(3)), m.group(4)
    bad += ts < last.get(loc, 0)
    last[loc] = ts
    s = st.setdefault(loc, [])
    if k == "ENTER":
        per_otf2[name] = per_otf2.get(name, 0) + 1
        s.append(name)
    elif not s or s.pop() != name:
        bad += 1
print("OTF2 ENTER/LEAVE pairs per region = the JSON's slices: %s; order or nesting errors: %d" %
      ("yes" if per_otf2 == per_json else "NO", bad + sum(map(len, st.values()))))
cpu = len(re.findall(r"^LOCATION .*Type: CPU_THREAD", open("defs.txt").read(), re.M))
print("CPU_THREAD locations = threads with calls: %s" % ("yes" if cpu == len(threads) else "NO (%d, %d)" % (cpu, len(threads))))
EOF
