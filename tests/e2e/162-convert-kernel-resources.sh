# Every output of rtg-convert shows each kernel's resources as its KERNEL
# record has them (tests/progs/tp_hip_kres on a simulated gfx90a): the
# JSON's kernel args, the Perfetto trace's annotations (the same as the
# JSON's, tests/perfetto/check_pftrace.py), the SQLite rtg_kernel table and
# rtg_kernel_dispatch view, --csv's kernel rows; and --stats
# (kernel_occupancy.csv), --summary (KERNEL_OCCUPANCY) and --analyze (its
# JSON kernel_occupancy and text table) give the waves per SIMD computed
# here from the records, by LLVM's gfx90a bounds: 8 slots, VGPRs 512 /
# roundup(arch + accum, 8), SGPRs <= 80: 10, <= 88: 9, <= 100: 8, else 7,
# LDS (64 KiB / LDS per workgroup) workgroups x their waves / 4.
. "$TOP/tests/e2e/02-tracer.inc"
. "$TOP/tests/e2e/12-perfetto.inc"
traced "$PROGS/tp_hip_kres" >out.txt 2>err.txt
echo "exit $?"
"$B/rtg-convert" -q -o t.json --sqlite t.db --stats=st --csv csv --analyze=a.json --summary \
  rtg_trace.txt.* >summary.txt
echo "convert exit $?"
"$B/rtg-convert" -q --analyze rtg_trace.txt.* >analyze.txt
echo "analyze exit $?"
pf_check rtg_trace.txt.* >pf.txt
grep -q 'slices (JSON [0-9]*), .* all equal' pf.txt && echo "perfetto: every slice and its args equal the JSON's" || cat pf.txt
sqlite3 -separator ' ' t.db 'SELECT o.id, k.kernelId, k.archVgpr, k.accumVgpr, k.sgpr, k.wavefront,
  k.staticLds, k.staticScratch, k.kernarg FROM rtg_kernel_dispatch o JOIN rtg_kernel k ON k.kernelId = o.kernelId' >db.txt
sqlite3 t.db 'SELECT count(*) FROM rtg_kernel_op' >dbops.txt
python3 - <<'PY'
import csv, glob, json, re

def up(v, g):
    return (v + g - 1) // g * g

recs = {}
for f in glob.glob("rtg_trace.txt.*"):
    for line in open(f):
        if line.startswith("RTG: ") and line.split()[3] == "kernel":
            kv = dict(re.findall(r" (\w+):('[^']*'|\S+)", line))
            recs[int(kv["id"])] = {k: (v.strip("'") if k in ("name", "arch") else int(v)) for k, v in kv.items()}
bad = 0
def differ(what):
    global bad
    bad += 1
    print("DIFFER", what)

# JSON args
keys = {"kernel_id": "id", "arch_vgpr": "arch_vgpr", "accum_vgpr": "accum_vgpr", "sgpr": "sgpr",
        "wavefront": "wavefront", "static_lds": "lds", "static_scratch": "scratch", "kernarg": "kernarg"}
slices = [e for e in json.load(open("t.json"))["traceEvents"] if e.get("cat") == "kernel"]
for e in slices:
    r = recs.get(e["args"].get("kernel_id"))
    if r is None:
        differ(f"json {e['name']}: no kernel_id")
        continue
    for a, k in keys.items():
        if e["args"].get(a) != r[k]:
            differ(f"json {e['name']} {a}: {e['args'].get(a)} vs {r[k]}")
print(f"json kernel slices: {'each' if slices else 'none'} with its record's values")
# SQLite
rows = [list(map(int, l.split())) for l in open("db.txt")]
for row in rows:
    r = recs[row[1]]
    if row[2:] != [r["arch_vgpr"], r["accum_vgpr"], r["sgpr"], r["wavefront"], r["lds"], r["scratch"], r["kernarg"]]:
        differ(f"sqlite op {row[0]}")
print(f"sqlite kernel ops = view rows = json slices: {int(open('dbops.txt').read()) == len(rows) == len(slices)}")
# CSV
crow = [r for f in glob.glob("csv/*/*_kernel_trace.csv") for r in csv.DictReader(open(f))]
for c in crow:
    r = recs[int(c["Kernel_Id"])]
    if (int(c["VGPR_Count"]), int(c["Accum_VGPR_Count"]), int(c["SGPR_Count"]), int(c["LDS_Block_Size"])) != \
            (r["arch_vgpr"], r["accum_vgpr"], r["sgpr"], up(r["lds"], 512)):
        differ(f"csv {c['Kernel_Name']}")
print(f"csv kernel rows = json slices: {len(crow) == len(slices)}")

# occupancy, from the records and the dispatches' launch shapes
def occ(r, wg, lds):
    slots = 8
    v = r["arch_vgpr"] + r["accum_vgpr"]
    byv = slots if v < 8 else min(slots, max(1, 512 // up(v, 8)))
    s = r["sgpr"]
    bys = min(slots, 10 if s <= 80 else 9 if s <= 88 else 8 if s <= 100 else 7)
    byl = slots
    if lds and wg:
        groups = 65536 // lds
        w = groups * ((wg + 63) // 64) // 4
        byl = min(slots, w if w or not groups else 1)
    waves = min(byv, bys, byl)
    limit = "none" if waves == slots else "VGPR" if waves == byv else "SGPR" if waves == bys else "LDS"
    return slots, byv, bys, byl, waves, limit

occ_rows = list(csv.DictReader(open("st/kernel_occupancy.csv")))
want = {}
for e in slices:
    r = recs[e["args"]["kernel_id"]]
    wg = e["args"]["workgroup"][0] * e["args"]["workgroup"][1] * e["args"]["workgroup"][2]
    lds = e["args"].get("lds", 0)
    k = (r["id"], wg, lds)
    want.setdefault(k, [0, occ(r, wg, lds), e["name"]])[0] += 1
got = {}
for o in occ_rows:
    k = (int(o["Kernel_Id"]), int(o["Workgroup_Size"]), int(o["LDS_Per_Workgroup"]))
    got[k] = [int(o["Calls"]), (int(o["Max_Waves_Per_SIMD"]), int(o["Waves_By_VGPR"]), int(o["Waves_By_SGPR"]),
                                int(o["Waves_By_LDS"]), int(o["Waves_Per_SIMD"]), o["Limit"]), o["Name"]]
for k, w in want.items():
    if got.get(k) != w:
        differ(f"occupancy {w[2]}: {got.get(k)} vs {w}")
print(f"occupancy rows = kernels x launch shapes: {len(occ_rows) == len(want)}")
an = json.load(open("a.json"))["kernel_occupancy"]
for a, o in zip(an, occ_rows):
    if (a["kernel_id"], a["calls"], a["waves_per_simd"], a["limit"], a["waves_by_lds"]) != \
            (int(o["Kernel_Id"]), int(o["Calls"]), int(o["Waves_Per_SIMD"]), o["Limit"], int(o["Waves_By_LDS"])):
        differ(f"analyze occupancy {a['name']}")
print(f"analyze JSON occupancy rows = stats rows: {len(an) == len(occ_rows)}")
def table(path):
    lines = open(path).read().split("KERNEL_OCCUPANCY:")[1].split("\n\n")[0].splitlines()
    return lines[2:]
text, text2 = table("summary.txt"), table("analyze.txt")
print(f"summary table rows = stats rows: {len(text) == len(occ_rows)}; analyze's table the same: {text == text2}")
by = {o["Name"].split("(")[0]: o for o in occ_rows}
print("heavy holds fewer waves than light:",
      int(by["kres_heavy"]["Waves_Per_SIMD"]) < int(by["kres_light"]["Waves_Per_SIMD"]),
      "| its limit:", by["kres_heavy"]["Limit"])
print("rows that differ:", bad)
PY
