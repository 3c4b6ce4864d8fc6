# A correlation id for every call (issue 29): each HIP, HSA and ROCTx
# record has its own id (HIP corr, HSA cid, ROCTx corr), unique in the
# process; an HSA call made inside a HIP call names it (its corr), and so
# would a call made inside any traced call (HIP and ROCTx ancestor:), the
# enclosing call being on the same thread and running when the call began;
# the GPU ops carry the id of the call that submitted them: the HIP call
# (sg_hip), else the HSA call (tp_roctx, an HSA program in ROCTx ranges:
# its dispatches' doorbell stores).  Then rtg-convert: --csv fills
# Correlation_Id on every hip/hsa/marker row, unique per process, and each
# kernel and copy row has its submitting call's; the JSON's HSA slices
# carry corr (the call's id) and ancestor.  Then two HSA programs for the
# ops' side alone: 200 dispatches, each rung in a doorbell store of a few
# hundred ns (an op's tick and its call's times must come from one clock
# to lie inside it every time), and the same copy asked for twice in a
# row (two calls with the same arguments, which repeated calls would make
# one record of: each submitted a copy, so each keeps a record of its
# own).  (Traces of earlier versions, without cid: e2e 125.)
. "$TOP/tests/e2e/02-tracer.inc"
RTG_HSA_API_FILTER=all traced "$SIMGPU/sg_hip" >/dev/null
mv "$(trace_of)" hip.txt
LD_PRELOAD="${LD_PRELOAD:+$LD_PRELOAD:}$B/abi/roctx53/libroctx64.so.4" RTG_HSA_API_FILTER=all \
  traced "$PROGS/tp_roctx" "$SIMGPU/kernels.hsaco" >/dev/null
mv "$(trace_of)" hsa.txt
for t in hip hsa; do
  "$B/rtg-convert" -q --csv "csv_$t" -o "$t.json" "$t.txt"
  echo "convert $t: exit $?"
done
python3 - <<'EOF'
import csv, glob, json, re

def fields(line):
    return dict(m.groups() for m in re.finditer(r" (\w+):(\S+)", line))

def check(name, path, ops_by):
    calls, ops, bad, noid, dup = {}, [], [], 0, 0
    kinds = {"HIP": 0, "HSA": 0, "ROCTX": 0}
    for line in open(path, encoding="utf-8", errors="replace"):
        m = re.match(r"(HIP|HSA|ROCTX): pid:\d+ tid:(\d+) (\S+)", line)
        if not m:
            continue
        kind, tid, first = m.groups()
        f = fields(line)
        if kind == "HSA" and first in ("dispatch", "barrier", "copy"):
            if "start" in f:
                ops.append((first, f))
            continue
        t = re.search(r" @(\d+) \+(\d+)", line)
        start, end = (int(t.group(1)), int(t.group(1)) + int(t.group(2))) if t else \
            (int(f["start"]), int(f["stop"]))
        if kind == "HSA" and "polls" in f:
            end = int(f["last"]) + int(f["last_dur"])
        own = f.get("cid" if kind == "HSA" else "corr")
        up = f.get("corr" if kind == "HSA" else "ancestor")
        kinds[kind] += 1
        if own is None:
            noid += 1
            bad.append("no id: " + line.strip()[:100])
            continue
        if own in calls:
            dup += 1
            bad.append("id %s twice" % own)
        calls[own] = (kind, tid, start, end, up, first)
    nested, first_bad = 0, len(bad)
    for own, (kind, tid, start, end, up, fn) in calls.items():
        if up is None:
            continue
        nested += 1
        p = calls.get(up)
        if not p or p[1] != tid or not (p[2] <= start <= p[3]):
            bad.append("%s %s: ancestor %s is no call around it on its thread" % (kind, fn, up))
    anc_ok = len(bad) == first_bad
    by, first_bad = {}, len(bad)
    for k, f in ops:
        c = calls.get(f.get("corr"))
        if k != "barrier" and not c:
            bad.append("%s %s: corr %s is no call" % (k, f["id"], f.get("corr")))
        if c:
            by[c[0]] = by.get(c[0], 0) + 1
            if "tick" in f and not (c[2] <= int(f["tick"]) <= c[3]):
                bad.append("%s %s: submitted outside its call" % (k, f["id"]))
    print("%s: calls HIP %s, HSA %s, ROCTx %s; with an id each: %s; unique: %s" % (
        name, "yes" if kinds["HIP"] else "none", "yes" if kinds["HSA"] else "none",
        "yes" if kinds["ROCTX"] else "none", "yes" if not noid else "no", "yes" if not dup else "no"))
    print("%s: calls made inside another call: %s; each names a call around it on its thread: %s" % (
        name, "some" if nested else "none", "yes" if anc_ok else "no"))
    print("%s: GPU ops, each of a call that ran when it was submitted: %s; the API of those calls: %s" % (
        name, "yes" if ops and len(bad) == first_bad else "no", ", ".join(sorted(by))))
    for b in bad[:10]:
        print("  BAD", b)
    return calls

def check_csv(name, calls):
    ids, rows, bad = set(), 0, []
    for fn in sorted(glob.glob("csv_%s/*/*_*_api_trace.csv" % name)):
        for r in csv.DictReader(open(fn, newline="")):
            rows += 1
            c = r["Correlation_Id"]
            if not c or c in ids:
                bad.append("%s: Correlation_Id %r" % (fn, c))
            ids.add(c)
    ops = 0
    for fn in glob.glob("csv_%s/*/*_kernel_trace.csv" % name) + \
            glob.glob("csv_%s/*/*_memory_copy_trace.csv" % name):
        for r in csv.DictReader(open(fn, newline="")):
            ops += 1
            if r["Correlation_Id"] not in ids:
                bad.append("%s: op of no call %r" % (fn, r["Correlation_Id"]))
    print("%s csv: API rows with a unique Correlation_Id: %s; kernel and copy rows of an API row: %s" % (
        name, "all" if rows and not bad else "NOT ALL", "all" if ops and not bad else "NOT ALL"))
    print("%s csv: API rows = calls of the trace: %s" % (name, rows == len(calls)))
    for b in bad[:10]:
        print("  BAD", b)

def check_json(name, path, calls):
    ev = json.load(open(path))
    ev = ev["traceEvents"] if isinstance(ev, dict) else ev
    n, bad = 0, 0
    for e in ev:
        if e.get("cat") != "hsa":
            continue
        n += 1
        a = e.get("args", {})
        c = calls.get(str(a.get("corr")))
        if not c or c[0] != "HSA" or str(a.get("ancestor")) != str(c[4]) and not (
                c[4] is None and "ancestor" not in a):
            bad += 1
    print("%s json: HSA slices with their call's corr and ancestor: %s" % (name, "all" if n and not bad else "NOT ALL"))

for name in ("hip", "hsa"):
    calls = check(name, name + ".txt", None)
    check_csv(name, calls)
    check_json(name, name + ".json", calls)
EOF
RTG_HSA_API_FILTER=all traced "$PROGS/tp_bench" dispatch 200 >/dev/null
mv "$(trace_of)" bench.txt
RTG_HSA_API_FILTER=all traced "$PROGS/tp_copies" twice >/dev/null
mv "$(trace_of)" twice.txt
python3 - <<'EOF'
import re

for name, kind in (("bench", "dispatch"), ("twice", "copy")):
    calls, ops = {}, []
    for line in open(name + ".txt", encoding="utf-8", errors="replace"):
        f = dict(m.groups() for m in re.finditer(r" (\w+):(\S+)", line))
        if re.match(r"HSA: \S+ \S+ %s " % kind, line) and "start" in f:
            ops.append(f)
        t = re.search(r" @(\d+) \+(\d+)", line)
        if line.startswith("HSA: ") and t and "cid" in f:
            start = int(t.group(1))
            end = int(f["last"]) + int(f["last_dur"]) if "polls" in f else start + int(t.group(2))
            calls[f["cid"]] = (start, end)
    named = [calls.get(f.get("corr")) for f in ops]
    inside = [c for f, c in zip(ops, named) if c and c[0] <= int(f["tick"]) <= c[1]]
    print("%s: %d %s records; each names a call of the trace: %s; submitted inside it: %s" % (
        name, len(ops), kind, "yes" if ops and all(named) else "no",
        "yes" if ops and len(inside) == len(ops) else "no"))
EOF
