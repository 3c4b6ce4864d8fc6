# Kernel resources: tests/progs/tp_hip_kres (kernels of known, different
# register, AGPR, LDS and scratch use, built for gfx90a and gfx908) traced
# on a simulated gfx90a and gfx908.  Every kernel's KERNEL record and every
# dispatch row of --csv's kernel_trace.csv (Kernel_Id, VGPR_Count,
# Accum_VGPR_Count, SGPR_Count, LDS_Block_Size, Scratch_Size) equal what
# the code object's own metadata say (llvm-readelf --notes on the code
# object extracted from the program's offload bundle), turned into
# rocprofv3's units with LLVM's encoding of the kernel descriptor:
#   gfx90a  VGPR = roundup(max(1, .vgpr_count - .agpr_count), 4)
#           AGPR = roundup(max(1, .vgpr_count), 8) - VGPR  (one register file)
#   gfx908  VGPR = AGPR = roundup(max(1, .vgpr_count), 4)   (.vgpr_count: the larger file)
#   SGPR    = ((ceil(max(1, .sgpr_count) / 8) - 1) // 2 + 1) * 16
#   LDS     = roundup(.group_segment_fixed_size, 512); Scratch = .private_segment_fixed_size
# and the record's lds, scratch, kernarg and wavefront are the metadata's
# sizes.  The kernels differ as built: heavy uses more VGPRs than light,
# its __launch_bounds__ twin fewer, kres_agpr AGPRs, kres_lds 4 KiB of LDS,
# kres_scratch and the bounded kernel scratch.
. "$TOP/tests/e2e/02-tracer.inc"
readelf=
for d in $(ls -d /usr/lib/llvm-*/bin 2>/dev/null | sort -t- -k2 -n -r); do
  [ -x "$d/llvm-readelf" ] && { readelf="$d/llvm-readelf"; break; }
done
[ -n "$readelf" ] || readelf=$(command -v llvm-readelf || true)
[ -n "$readelf" ] || { echo "SKIP: no llvm-readelf"; exit 77; }
# the code objects of the program's offload bundles, one file per target
python3 - "$PROGS/tp_hip_kres" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
magic = b"__CLANG_OFFLOAD_BUNDLE__"
pos = data.find(magic)
while pos >= 0:
    n, = struct.unpack_from("<Q", data, pos + 24)
    p = pos + 32
    for _ in range(n):
        off, size, tlen = struct.unpack_from("<QQQ", data, p)
        triple = data[p + 24:p + 24 + tlen].decode()
        p += 24 + tlen
        arch = triple.rsplit("-", 1)[-1].split(":")[0]
        if triple.startswith("hip") and arch.startswith("gfx") and size:
            open("co." + arch, "wb").write(data[pos + off:pos + off + size])
    pos = data.find(magic, pos + 1)
PY
ls co.* | tr '\n' ' '; echo
for gfx in gfx90a gfx908; do
  "$readelf" --notes "co.$gfx" >"notes.$gfx" || echo "llvm-readelf failed on co.$gfx"
  mkdir "$gfx" && cd "$gfx" || exit 1
  SIMGPU_GFX=$gfx traced "$PROGS/tp_hip_kres" >out.txt 2>err.txt
  echo "$gfx: exit $?"
  "$B/rtg-convert" -q --csv csv rtg_trace.txt.*
  echo "$gfx: convert exit $?"
  cd ..
done
python3 - <<'PY'
import csv, glob, math, re

def up(v, g):
    return (v + g - 1) // g * g

def metadata(path):
    ks, k = {}, None
    for line in open(path):
        m = re.match(r"\s*-?\s*\.(\w+):\s+(\S+)", line)
        if not m:
            continue
        key, val = m.groups()
        if key == "args":
            continue
        if line.lstrip().startswith("- ") and k is not None and "name" in k and "vgpr_count" in k:
            k = None
        if k is None:
            k = {}
        k[key] = val
        if "name" in k and "vgpr_count" in k and "sgpr_count" in k and "wavefront_size" in k \
                and "group_segment_fixed_size" in k and "private_segment_fixed_size" in k \
                and "kernarg_segment_size" in k:
            ks[k["name"]] = k
    return ks

def expected(gfx, m):
    v, a, s = int(m["vgpr_count"]), int(m.get("agpr_count", 0)), int(m["sgpr_count"])
    if gfx == "gfx90a":
        arch = up(max(1, v - a), 4)
        accum = up(max(1, v), 8) - arch
    else:
        arch = accum = up(max(1, v), 4)
    sgpr = ((math.ceil(max(1, s) / 8) - 1) // 2 + 1) * 16
    return {"VGPR_Count": arch, "Accum_VGPR_Count": accum, "SGPR_Count": sgpr,
            "LDS_Block_Size": up(int(m["group_segment_fixed_size"]), 512),
            "Scratch_Size": int(m["private_segment_fixed_size"])}

names = ["kres_light", "kres_heavy", "kres_bounded", "kres_agpr", "kres_lds", "kres_scratch"]
for gfx in ("gfx90a", "gfx908"):
    meta = metadata("notes." + gfx)
    mine = {k: v for k, v in meta.items() if "kres_" in k}
    print(f"{gfx}: kernels in the metadata: {len(mine)}")
    recs = {}
    for f in glob.glob(gfx + "/rtg_trace.txt.*"):
        for line in open(f):
            if line.startswith("RTG: ") and line.split()[3] == "kernel":
                kv = dict(re.findall(r" (\w+):('[^']*'|\S+)", line))
                recs[int(kv["id"])] = kv
    rows = []
    for f in glob.glob(gfx + "/csv/*/*_kernel_trace.csv"):
        rows += list(csv.DictReader(open(f)))
    bad = 0
    seen = {}
    for r in rows:
        if not r["Kernel_Id"] or not r["VGPR_Count"] or not r["SGPR_Count"] or not r["Accum_VGPR_Count"]:
            print(f"{gfx}: row without kernel values: {r['Kernel_Name']}")
            bad += 1
            continue
        rec = recs.get(int(r["Kernel_Id"]))
        if rec is None:
            print(f"{gfx}: Kernel_Id {r['Kernel_Id']} has no KERNEL record")
            bad += 1
            continue
        sym = rec["name"].strip("'")
        if sym not in meta:
            continue  # the runtime's own kernels: not in this code object
        m = meta[sym]
        e = expected(gfx, m)
        for col, want in e.items():
            if int(r[col]) != want:
                print(f"{gfx} {sym}: {col} {r[col]}, the metadata say {want}")
                bad += 1
        for key, mkey in (("lds", "group_segment_fixed_size"), ("scratch", "private_segment_fixed_size"),
                          ("kernarg", "kernarg_segment_size"), ("wavefront", "wavefront_size")):
            if int(rec[key]) != int(m[mkey]):
                print(f"{gfx} {sym}: record {key}:{rec[key]}, the metadata say {m[mkey]}")
                bad += 1
        if rec.get("arch") != gfx:
            print(f"{gfx} {sym}: record arch:{rec.get('arch')}")
            bad += 1
        short = re.sub(r"^_Z\d+(\w+?)P.*$", r"\1", sym)
        seen.setdefault(short, []).append(e)
    ntest = sum(len(v) for v in seen.values())
    print(f"{gfx}: every kernel row filled, rows that differ from the metadata: {bad}")
    print(f"{gfx}: test kernels checked: " + " ".join(f"{n}x{len(seen.get(n, []))}" for n in names))
    g = {n: seen[n][0] for n in names if n in seen}
    if len(g) == len(names):
        print(f"{gfx}: heavy > light VGPRs: {g['kres_heavy']['VGPR_Count'] > g['kres_light']['VGPR_Count']}",
              f"bounded < heavy VGPRs: {g['kres_bounded']['VGPR_Count'] < g['kres_heavy']['VGPR_Count']}",
              f"agpr AGPRs in metadata: {int(meta['_Z9kres_agprPfi'].get('agpr_count', 0)) > 0}",
              f"lds LDS: {g['kres_lds']['LDS_Block_Size']}",
              f"scratch > 0: {g['kres_scratch']['Scratch_Size'] > 0}")
PY
