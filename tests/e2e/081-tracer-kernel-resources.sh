# Kernel resources: tests/progs/tp_hip_kres (kernels of known, different
# register, AGPR, LDS and scratch use, built for gfx90a and gfx908) traced
# on a simulated gfx90a and gfx908.  Every dispatch row of --csv's
# kernel_trace.csv (Kernel_Id, VGPR_Count, Accum_VGPR_Count, SGPR_Count,
# LDS_Block_Size, Scratch_Size) and every KERNEL record is checked against
# the code object itself (pulled here from the program's offload bundle):
# - the registers equal its kernel descriptor's (the KERNEL_NAME.kd symbol's
#   64 bytes, read here from the ELF file) decoded as rocprofiler-sdk does:
#     gfx90a  VGPR = (rsrc3.ACCUM_OFFSET + 1) * 4,
#             AGPR = (rsrc1.GRANULATED_WORKITEM_VGPR_COUNT + 1) * 8 - VGPR
#     gfx908  VGPR = AGPR = (rsrc1.GRANULATED_WORKITEM_VGPR_COUNT + 1) * 4
#     SGPR    = (rsrc1.GRANULATED_WAVEFRONT_SGPR_COUNT / 2 + 1) * 16
# - and match what its metadata say (llvm-readelf --notes), turned into
#   rocprofv3's units with LLVM's encoding:
#     gfx90a  VGPR = roundup(max(1, .vgpr_count - .agpr_count), 4)
#             AGPR = roundup(max(1, .vgpr_count), 8) - VGPR  (one register file)
#     gfx908  VGPR = AGPR = roundup(max(1, .vgpr_count), 4)   (.vgpr_count: the larger file)
#     SGPR    = ((ceil(max(1, .sgpr_count) / 8) - 1) // 2 + 1) * 16
#   exactly, or more where the compiler allocated beyond the count (sid's
#   and experimental's LLVM round a kernel's allocation up to what its
#   occupancy allows anyway: said per kernel, hence those suites' own
#   expected output);
# - LDS = roundup(.group_segment_fixed_size, 512), Scratch =
#   .private_segment_fixed_size, and the record's lds, scratch, kernarg and
#   wavefront are the metadata's sizes.
# The kernels differ as built: heavy uses more VGPRs than light, its
# __launch_bounds__ twin fewer, kres_agpr AGPRs, kres_lds 4 KiB of LDS,
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
import csv, glob, math, re, struct

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

def elf_descriptors(path):
    """name.kd symbol -> (rsrc1, rsrc3) of the kernel descriptor it points at"""
    d = open(path, "rb").read()
    shoff, = struct.unpack_from("<Q", d, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", d, 0x3A)
    secs = [struct.unpack_from("<IIQQQQIIQQ", d, shoff + i * shentsize) for i in range(shnum)]
    out = {}
    for name, typ, flags, addr, off, size, link, info, align, entsize in secs:
        if typ != 2:  # SHT_SYMTAB
            continue
        strtab = secs[link]
        for k in range(size // entsize):
            st_name, st_info, st_other, st_shndx, st_value, st_size = struct.unpack_from("<IBBHQQ", d, off + k * entsize)
            s0 = strtab[4] + st_name
            sym = d[s0:d.index(b"\0", s0)].decode()
            if not sym.endswith(".kd") or st_shndx >= len(secs):
                continue
            sec = secs[st_shndx]
            kd = d[sec[4] + st_value - sec[3]:][:64]
            rsrc3, rsrc1 = struct.unpack_from("<II", kd, 44)
            out[sym[:-3]] = (rsrc1, rsrc3)
    return out

def decoded(gfx, rsrc1, rsrc3):
    g = rsrc1 & 63
    if gfx == "gfx90a":
        arch = ((rsrc3 & 63) + 1) * 4
        accum = (g + 1) * 8 - arch
    else:
        arch = accum = (g + 1) * 4
    return {"VGPR_Count": arch, "Accum_VGPR_Count": accum, "SGPR_Count": (((rsrc1 >> 6) & 15) // 2 + 1) * 16}

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
    kds = elf_descriptors("co." + gfx)
    more = {}
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
        kd = decoded(gfx, *kds[sym]) if sym in kds else None
        if kd is None:
            print(f"{gfx} {sym}: no descriptor in the code object")
            bad += 1
        for col, want in e.items():
            if kd is not None and col in kd and int(r[col]) != kd[col]:
                print(f"{gfx} {sym}: {col} {r[col]}, the descriptor says {kd[col]}")
                bad += 1
            if int(r[col]) < want or (col not in ("VGPR_Count", "Accum_VGPR_Count", "SGPR_Count") and int(r[col]) != want):
                print(f"{gfx} {sym}: {col} {r[col]}, the metadata say {want}")
                bad += 1
            elif int(r[col]) > want:
                more.setdefault(sym, []).append(f"{col} {r[col]} > {want}")
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
    print(f"{gfx}: every kernel row filled, values that differ from the descriptor or the metadata: {bad}")
    for sym, what in sorted(more.items()):
        print(f"{gfx} {sym}: the descriptor allocates more than the metadata count: {', '.join(sorted(set(what)))}")
    print(f"{gfx}: test kernels checked: " + " ".join(f"{n}x{len(seen.get(n, []))}" for n in names))
    g = {n: seen[n][0] for n in names if n in seen}
    if len(g) == len(names):
        print(f"{gfx}: heavy > light VGPRs: {g['kres_heavy']['VGPR_Count'] > g['kres_light']['VGPR_Count']}",
              f"bounded < heavy VGPRs: {g['kres_bounded']['VGPR_Count'] < g['kres_heavy']['VGPR_Count']}",
              f"agpr AGPRs in metadata: {int(meta['_Z9kres_agprPfi'].get('agpr_count', 0)) > 0}",
              f"lds LDS: {g['kres_lds']['LDS_Block_Size']}",
              f"scratch > 0: {g['kres_scratch']['Scratch_Size'] > 0}")
PY
