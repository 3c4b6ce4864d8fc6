# --csv read as a rocprofv3 user's script reads it: every <pid>_<kind>.csv
# under the output directory loaded with python3's csv module (as
# pandas.read_csv and concat would load them; Debian's pandas is 92
# packages, not needed for this), durations summed per name and compared
# with rtg's own --stats, kernels joined to the HIP call that launched them
# by Correlation_Id.  Then the time window (of hip_streams_2gpu.txt) and
# --zero: the rows are the events the JSON keeps, with the same (relative)
# times.  And 30 processes at once: 150 files, more than are kept open.
R="$TOP/tests/data/convert/real"
IN="$R/hsa_vadd.txt $R/sg_hip.txt $R/hip_streams_2gpu.txt"
# shellcheck disable=SC2086
"$B/rtg-convert" -q --csv csv --stats=st $IN
echo "exit $?"
# 30 processes: 150 files, more than the 64 kept open at a time
# (the generator links the build's common library: with its sanitizers, when SAN= is set)
cc -O2 ${SAN:+-fsanitize=$SAN} -I"$TOP/include" -o gen "$TOP/scripts/bench-convert-gen.c" "$B/librtgcommon.a" && ./gen 4000000 3 30 >p30.txt
"$B/rtg-convert" -q -o p30.json --csv c30 p30.txt
echo "exit $?"
"$B/rtg-convert" -q --csv win --start 97% --end 99.5% --zero -o win.json "$R/hip_streams_2gpu.txt"
echo "exit $?"
python3 - <<'EOF'
import csv, glob, json

def load(kind, d="csv"):
    """All processes' rows of one kind, as pandas.concat of read_csv would."""
    rows = []
    for fn in sorted(glob.glob("%s/*/*_%s.csv" % (d, kind))):
        with open(fn, newline="", encoding="utf-8") as f:
            rows += list(csv.DictReader(f))
    return rows

def per_name(rows, col):
    agg = {}
    for r in rows:
        dur = int(r["End_Timestamp"]) - int(r["Start_Timestamp"])
        c, t = agg.get(r[col], (0, 0))
        agg[r[col]] = (c + 1, t + dur)
    return agg

def stats(name):
    with open("st/%s.csv" % name, newline="") as f:
        return {r["Name"]: (int(r["Calls"]), int(r["TotalDurationNs"])) for r in csv.DictReader(f)}

for kind, col, st, conv in [
    ("kernel_trace", "Kernel_Name", "kernel_stats", None),
    ("hip_api_trace", "Function", "hip_api_stats", None),
    ("hsa_api_trace", "Function", "hsa_api_stats", None),
    ("memory_copy_trace", "Direction", "memory_copy_stats",
     {"MEMORY_COPY_HOST_TO_DEVICE": "HostToDevice", "MEMORY_COPY_DEVICE_TO_HOST": "DeviceToHost",
      "MEMORY_COPY_DEVICE_TO_DEVICE": "DeviceToDevice"}),
]:
    agg = per_name(load(kind), col)
    if conv:
        agg = {conv[k]: v for k, v in agg.items()}
    same = agg == stats(st)
    print("%-18s %3d names, %4d rows, totals per name as --stats: %s" %
          (kind, len(agg), sum(c for c, _ in agg.values()), "yes" if same else "NO"))

# which HIP call launched each kernel (per process: Process_Id of the call,
# the process of the file for the kernel)
launch = {}
for fn in glob.glob("csv/*/*_hip_api_trace.csv"):
    with open(fn, newline="") as f:
        for r in csv.DictReader(f):
            if r["Correlation_Id"]:
                launch[(r["Process_Id"], r["Correlation_Id"])] = r["Function"]
by_fn, unmatched = {}, 0
for fn in sorted(glob.glob("csv/*/*_kernel_trace.csv")):
    pid = fn.split("/")[-1].split("_")[0]
    with open(fn, newline="") as f:
        for r in csv.DictReader(f):
            f_ = launch.get((pid, r["Correlation_Id"]))
            if f_ is None:
                unmatched += 1
            else:
                by_fn[f_] = by_fn.get(f_, 0) + 1
print("kernels by launching call:", ", ".join("%s %d" % kv for kv in sorted(by_fn.items())),
      "; without one:", unmatched)

cat_kind = {"kernel": ("kernel_trace", "Kernel_Name"), "hip": ("hip_api_trace", "Function"),
            "hsa": ("hsa_api_trace", "Function"), "copy": ("memory_copy_trace", "Direction")}

# many processes: every file whole (rows per kind as the JSON's events)
ev = json.load(open("p30.json"))["traceEvents"]
for cat, (kind, col) in sorted(list(cat_kind.items()) + [("roctx", ("marker_api_trace", ""))]):
    js = sum(1 for e in ev if e.get("ph") in ("X", "i") and e.get("cat") == cat)
    print("30 processes: %-6s %4d files, %5d rows, as the JSON: %s" %
          (cat, len(glob.glob("c30/*/*_%s.csv" % kind)), len(load(kind, "c30")),
           "yes" if js == len(load(kind, "c30")) else "NO (%d)" % js))

# the window: the JSON's events and the CSV rows are the same ones
with open("win.json") as f:
    evs = json.load(f)["traceEvents"]
for cat, (kind, col) in sorted(cat_kind.items()):
    js = sorted(round(e["ts"] * 1000) for e in evs if e.get("ph") == "X" and e.get("cat") == cat)
    cs = sorted(int(r["Start_Timestamp"]) for r in load(kind, "win"))
    print("window %-6s JSON %3d, CSV %3d rows, same start times: %s" %
          (cat, len(js), len(cs), "yes" if js == cs else "NO"))
EOF
