# HIP graphs (issue 29): tp_hip_graph's graph of three kernels (gk_a, gk_b,
# gk_c in a chain) and a device-to-device copy node, instantiated once and
# launched 10 times, built node by node and captured from a stream.  Each
# launch's 4 GPU ops (40 in all) carry the correlation id of their
# hipGraphLaunch, the graph exec's number (graph:) and their node (node:,
# the order in which the launch submitted them: the same node at every
# launch).  HIP copies a buffer with a blit kernel or an SDMA engine:
# either is the copy node.
. "$TOP/tests/e2e/02-tracer.inc"
for mode in build capture; do
  rm -f rtg_trace.txt.*
  traced "$PROGS/tp_hip_graph" $mode 10
  python3 - "$(trace_of)" <<'EOF'
import re, sys
launches, ops = {}, []
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    f = dict(m.groups() for m in re.finditer(r" (\w+):('[^']*'|\S+)", line))
    if line.startswith("HIP:") and re.search(r"tid:\d+ hipGraphLaunch\b", line):
        launches[f["corr"]] = []
    elif re.match(r"HSA: pid:\d+ tid:\d+ (dispatch|copy) ", line) and "start" in f:
        ops.append(f)
def what(f):
    n = f.get("demangled", f.get("name", "")).strip("'")
    if "kind" in f or n.startswith("__amd_rocclr_copy"):
        return "the copy"
    return "kernel " + n.split("(")[0]
print("hipGraphLaunch calls:", len(launches))
nodes, bad = {}, 0
for f in ops:
    if f.get("corr") not in launches:
        print("  op not of a launch:", f.get("id"), what(f)); bad += 1
        continue
    launches[f["corr"]].append(f)
    if "graph" not in f or "node" not in f:
        print("  op without graph or node:", f.get("id")); bad += 1
        continue
    nodes.setdefault((f["graph"], f["node"]), set()).add(what(f))
print("GPU ops of the launches:", sum(len(v) for v in launches.values()), "(problems: %d)" % bad)
print("ops per launch:", sorted(set(len(v) for v in launches.values())))
print("nodes per launch:", sorted(set(tuple(sorted(int(f["node"]) for f in v)) for v in launches.values())))
for (g, n), w in sorted(nodes.items()):
    print("graph %s node %s: %s" % (g, n, " or ".join(sorted(w))))
EOF
done
