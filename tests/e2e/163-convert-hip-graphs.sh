# rtg-convert on a trace of HIP graph launches (tp_hip_graph build 10: three
# kernels and a copy, 10 launches): --stats groups the graph's 40 ops in
# graph_stats.csv, by graph and by node (the copy's name, a blit kernel's
# or an SDMA copy's, shown as "(the copy)"); the JSON's kernels and copies
# carry graph and node; in --csv every kernel and copy row has the
# Correlation_Id of a hipGraphLaunch row; the Perfetto trace's slices have
# the JSON's arguments, graph and node included.  A trace without graph
# launches has no graph_stats.csv.
. "$TOP/tests/e2e/02-tracer.inc"
. "$TOP/tests/e2e/12-perfetto.inc"
traced "$PROGS/tp_hip_graph" build 10 >/dev/null
t=$(trace_of)
"$B/rtg-convert" -q --stats=st --csv csv -o t.json "$t"
echo "convert: exit $?"
python3 - <<'EOF'
import csv, glob, json, re
rows = []
for r in csv.DictReader(open("st/graph_stats.csv")):
    name = re.sub(r"^pid \d+ ", "", r["Name"])
    rows.append("graph_stats: %s: %s ops" % (re.sub(r"node 4: .*", "node 4: (the copy)", name), r["Calls"]))
print("\n".join(sorted(rows)))
ev = json.load(open("t.json"))
ev = ev["traceEvents"] if isinstance(ev, dict) else ev
ops = [e for e in ev if e.get("cat") in ("kernel", "copy")]
print("JSON kernels and copies:", len(ops), "with graph and node:",
      sum(1 for e in ops if "graph" in e.get("args", {}) and "node" in e["args"]))
launch = set()
for fn in glob.glob("csv/*/*_hip_api_trace.csv"):
    launch |= {r["Correlation_Id"] for r in csv.DictReader(open(fn)) if r["Function"] == "hipGraphLaunch"}
rows = []
for fn in glob.glob("csv/*/*_kernel_trace.csv") + glob.glob("csv/*/*_memory_copy_trace.csv"):
    rows += list(csv.DictReader(open(fn)))
print("CSV hipGraphLaunch rows:", len(launch), "kernel and copy rows:", len(rows),
      "of a hipGraphLaunch:", sum(1 for r in rows if r["Correlation_Id"] in launch))
EOF
echo "-- Perfetto against the JSON"
pf_check "$t" >pf.out
echo "check_pftrace: exit $?, slices equal to the JSON's: $(grep -c 'slices .* all equal' pf.out)"
echo "annotation names graph and node interned: $(grep -c '"graph"' pf.dec) $(grep -c '"node"' pf.dec)"
"$B/rtg-convert" -q --stats=st2 "$TOP/tests/data/convert/real/sg_hip.txt"
echo "without graph launches: graph_stats.csv $([ -e st2/graph_stats.csv ] && echo written || echo absent)"
