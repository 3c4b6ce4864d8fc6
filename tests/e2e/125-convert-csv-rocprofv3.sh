# --csv: rocprofv3's per-event CSV files from the three real recordings
# (tests/data/convert/real) and small.txt (ROCTx, quotes, bad UTF-8).
# 1. the files are the golden ones (tests/data/convert/rocprofv3-csv);
# 2. each header is, byte for byte, the one rocprofv3 writes (the column
#    lists of rocprofiler-sdk's source/lib/output/generateCSV.cpp, typed in
#    here, not taken from rtg);
# 3. column by column, every row holds what the trace's record says, the
#    records being parsed here with regular expressions, independently of
#    rtg's parser, in file order.
R="$TOP/tests/data/convert/real"
S="$TOP/tests/data/convert/small.txt"
"$B/rtg-convert" -q --csv csv "$R/hsa_vadd.txt" "$R/sg_hip.txt" "$R/hip_streams_2gpu.txt" "$S"
echo "exit $?"
(cd csv && find . -type f | sort)
if diff -r "$TOP/tests/data/convert/rocprofv3-csv" csv >diff.txt; then
  echo "golden: identical"
else
  echo "golden: DIFFERENT"
  head -n 20 diff.txt
fi
python3 - csv "$R/hsa_vadd.txt" "$R/sg_hip.txt" "$R/hip_streams_2gpu.txt" "$S" <<'EOF'
import csv, os, re, sys

out, traces = sys.argv[1], sys.argv[2:]
API = ["Domain", "Function", "Process_Id", "Thread_Id", "Correlation_Id",
       "Start_Timestamp", "End_Timestamp"]
HEADERS = {
    "kernel_trace": ["Kind", "Agent_Id", "Queue_Id", "Stream_Id", "Thread_Id", "Dispatch_Id",
                     "Kernel_Id", "Kernel_Name", "Correlation_Id", "Start_Timestamp",
                     "End_Timestamp", "LDS_Block_Size", "Scratch_Size", "VGPR_Count",
                     "Accum_VGPR_Count", "SGPR_Count", "Workgroup_Size_X", "Workgroup_Size_Y",
                     "Workgroup_Size_Z", "Grid_Size_X", "Grid_Size_Y", "Grid_Size_Z"],
    "hip_api_trace": API, "hsa_api_trace": API, "marker_api_trace": API,
    "memory_copy_trace": ["Kind", "Direction", "Stream_Id", "Source_Agent_Id",
                          "Destination_Agent_Id", "Correlation_Id", "Start_Timestamp",
                          "End_Timestamp"],
}

def unescape(s):
    # the trace's quoted strings: \\ \' and \xNN
    b = bytearray()
    i = 0
    while i < len(s):
        if s[i] == "\\" and s[i + 1] == "x":
            b.append(int(s[i + 2:i + 4], 16)); i += 4
        elif s[i] == "\\":
            b += s[i + 1].encode(); i += 2
        else:
            b += s[i].encode(); i += 1
    return b.decode("utf-8", "replace")

def field(line, key, quoted=False):
    if quoted:
        m = re.search(r" %s:'((?:[^'\\]|\\.)*)'" % key, line)
        return unescape(m.group(1)) if m else None
    m = re.search(r" %s:(\S+)" % key, line)
    return m.group(1) if m else None

def want_rows(path):
    """What rocprofv3 would write for each record, by file, in file order."""
    rows = {k: [] for k in HEADERS}
    host = None
    for line in open(path, encoding="utf-8", errors="surrogateescape"):
        line = line.rstrip("\n")
        m = re.match(r"(\w+): pid:(\d+) tid:(\d+) (.*)", line)
        if not m:
            continue
        kind, pid, tid, rest = m.groups()
        if kind == "RTG" and rest.startswith("trace "):
            host = field(line, "host")
        if kind == "HIP":
            f = re.match(r"([^\s(]+)", rest).group(1)
            t = re.search(r" ret=\S+ @(\d+) \+(\d+)", rest)
            s, d = int(t.group(1)), int(t.group(2))
            dom = "HIP_COMPILER_API_EXT" if f.startswith("__hip") else "HIP_RUNTIME_API_EXT"
            rows["hip_api_trace"].append((pid, [dom, f, pid, tid, field(line, "corr") or "",
                                               str(s), str(s + d)]))
        elif kind == "HSA" and re.match(r"hsa_\w+ \(", rest):
            f = rest.split(" ")[0]
            t = re.search(r" ret=\S+ @(\d+) \+(\d+)", rest)
            s, d = int(t.group(1)), int(t.group(2))
            dom = ("HSA_AMD_EXT_API" if f.startswith("hsa_amd_") else
                   "HSA_IMAGE_EXT_API" if f.startswith(("hsa_ext_image_", "hsa_ext_sampler_")) else
                   "HSA_FINALIZE_EXT_API" if f.startswith("hsa_ext_program_") else "HSA_CORE_API")
            rows["hsa_api_trace"].append((pid, [dom, f, pid, tid, field(line, "cid") or "",
                                               str(s), str(s + d)]))
        elif kind == "HSA" and rest.startswith("dispatch ") and " start:" in rest:
            if int(field(line, "stop")) < int(field(line, "start")):
                continue  # rtg skips it (stop before start)
            name = field(line, "demangled", True) or field(line, "name", True)
            wg, grid = field(line, "workgroup"), field(line, "grid")
            dims = (wg.strip("{}").split(",") + grid.strip("{}").split(",")) if wg and grid else [""] * 6
            lds = field(line, "lds")
            lds = str((int(lds) + 511) // 512 * 512) if lds is not None else ""
            rows["kernel_trace"].append((pid, ["KERNEL_DISPATCH", "Agent " + field(line, "agent"),
                field(line, "queue"), "", "", field(line, "id"), "", name,
                field(line, "corr") or "", field(line, "start"), field(line, "stop"),
                lds, field(line, "scratch") or "", "", "", ""] + dims))
        elif kind == "HSA" and rest.startswith("copy "):
            d = {"HostToDevice": "MEMORY_COPY_HOST_TO_DEVICE", "DeviceToHost": "MEMORY_COPY_DEVICE_TO_HOST",
                 "DeviceToDevice": "MEMORY_COPY_DEVICE_TO_DEVICE", "HostToHost": "MEMORY_COPY_HOST_TO_HOST"}
            src, dst = field(line, "src_agent"), field(line, "dst_agent")
            rows["memory_copy_trace"].append((pid, ["MEMORY_COPY", d.get(field(line, "kind"), ""), "",
                "Agent " + src if src else "", "Agent " + dst if dst else "",
                field(line, "corr") or "", field(line, "start"), field(line, "stop")]))
        elif kind == "ROCTX":
            rows["marker_api_trace"].append((pid, ["MARKER_CORE_RANGE_API",
                field(line, "message", True) or "", pid, tid, field(line, "corr") or "",
                field(line, "start"),
                field(line, "stop")]))
    return host, rows

checked = {k: 0 for k in HEADERS}
bad = 0
for path in traces:
    host, rows = want_rows(path)
    for k, want in rows.items():
        by_pid = {}
        for pid, r in want:
            by_pid.setdefault(pid, []).append(r)
        for pid, wrows in by_pid.items():
            fn = os.path.join(out, host, "%s_%s.csv" % (pid, k))
            with open(fn, newline="", encoding="utf-8") as f:
                text = f.read()
            first = text.split("\n", 1)[0]
            if first != ",".join('"%s"' % h for h in HEADERS[k]):
                print("%s: header differs: %s" % (fn, first)); bad += 1
            got = list(csv.reader(text.splitlines(True)))[1:]
            if len(got) != len(wrows):
                print("%s: %d rows, want %d" % (fn, len(got), len(wrows))); bad += 1
            for i, (g, w) in enumerate(zip(got, wrows)):
                for col, gv, wv in zip(HEADERS[k], g, w):
                    if gv != wv:
                        print("%s row %d %s: %r, want %r" % (fn, i + 1, col, gv, wv)); bad += 1
                if len(g) != len(HEADERS[k]):
                    print("%s row %d: %d columns" % (fn, i + 1, len(g))); bad += 1
            checked[k] += len(got)
for k in HEADERS:
    print("%-18s %3d rows checked column by column" % (k, checked[k]))
print("mismatches:", bad)
EOF
