# Kernel records in every trace, and what readers do with partial ones:
# - examples/hip_streams on two GPUs (3 streams, the runtime's own blit
#   kernels too) and examples/hsa_fork (an HSA code object loaded from a
#   file, a child that execs the program again: a second trace file): in
#   each file every dispatch names a kernel_id whose kernel record comes
#   earlier in the file, each id has one record, and every record has its
#   registers, sizes and arch;
# - sg_stress dispatches a kernel object no executable holds: its
#   dispatches have no kernel_id, and --csv leaves the kernel columns empty;
# - a hand-made trace: a kernel record without registers (a descriptor the
#   tracer could not read), one whose id is not a number, a dispatch naming
#   a kernel id without a record: rtg-convert names the bad line, skips it,
#   and fills what it has.
. "$TOP/tests/e2e/02-tracer.inc"
check() { # FILES...: the per-file facts
  python3 - "$@" <<'PY'
import re, sys
for path in sys.argv[1:]:
    recs, order_bad, dup, disp, named, full = {}, 0, 0, 0, 0, 0
    for line in open(path):
        f = line.split()
        if line.startswith("RTG: ") and len(f) > 3 and f[3] == "kernel":
            kv = dict(re.findall(r" (\w+):('[^']*'|\S+)", line))
            if kv["id"] in recs:
                dup += 1
            recs[kv["id"]] = kv
            if all(k in kv for k in ("arch_vgpr", "accum_vgpr", "sgpr", "lds", "scratch", "kernarg", "wavefront", "arch")):
                full += 1
        elif line.startswith("HSA: ") and len(f) > 3 and f[3] == "dispatch" and " start:" in line:
            disp += 1
            m = re.search(r" kernel_id:(\d+)", line)
            if m:
                named += 1
                if m.group(1) not in recs:
                    order_bad += 1
    role = "parent" if ".exec" not in path else "exec child"
    print(f"{role}: dispatches {'all' if named == disp else named} name a kernel_id,"
          f" recorded earlier in the file: {'all' if order_bad == 0 else f'{order_bad} not'};"
          f" records per id: {'1' if dup == 0 else f'{dup} repeated'};"
          f" records with every field: {'all' if full == len(recs) else f'{full} of {len(recs)}'}")
PY
}
echo "== hip_streams"
SIMGPU_GPUS=2 traced "$B/examples/hip_streams" -s 3 -n 2 >out.txt 2>err.txt
echo "exit $?"
check rtg_trace.txt.*
rm -f rtg_trace.txt.*
echo "== hsa_fork"
traced "$B/examples/hsa_fork" >out.txt 2>err.txt
echo "exit $?"
for f in $(ls rtg_trace.txt.* | sort); do grep -q ' dispatch ' "$f" && check "$f"; done
rm -f rtg_trace.txt.*
echo "== a kernel object no executable holds (sg_stress)"
traced "$SIMGPU/sg_stress" 2 20 >out.txt 2>err.txt
echo "exit $?"
f=$(trace_of)
echo "dispatches: $(grep -c ' dispatch .* start:' "$f" | sed 's/^[1-9][0-9]*$/some/'), with kernel_id: $(grep -c ' dispatch .* kernel_id:' "$f"), kernel records: $(grep -c '^RTG: .* kernel ' "$f")"
"$B/rtg-convert" -q --csv csv "$f"; echo "convert exit $?"
python3 - <<'PY'
import csv, glob
rows = [r for f in glob.glob("csv/*/*_kernel_trace.csv") for r in csv.DictReader(open(f))]
print("rows:", "some" if rows else "none", "| with Kernel_Id or registers:",
      sum(1 for r in rows if r["Kernel_Id"] or r["VGPR_Count"] or r["SGPR_Count"]))
PY
rm -rf csv rtg_trace.txt.*
echo "== partial and broken kernel records"
cat >t.txt <<'T'
RTG: pid:7 tid:7 trace format:1 host:h clock:boottime boot_ns:1000
RTG: pid:7 tid:7 agent index:0 type:cpu name:'cpu'
RTG: pid:7 tid:7 agent index:1 type:gpu name:'gfx90a'
RTG: pid:7 tid:7 kernel id:1 object:4096 agent:1 name:'_Z1kv' lds:1000 scratch:16 kernarg:8
RTG: pid:7 tid:7 kernel id:x2 object:8192 name:'_Z1jv' arch_vgpr:8
HSA: pid:7 tid:9 dispatch queue:0 agent:1 signal:0 name:'_Z1kv' start:2000 stop:3000 id:1 workgroup:{64,1,1} grid:{64,1,1} lds:0 scratch:16 kernel_id:1
HSA: pid:7 tid:9 dispatch queue:0 agent:1 signal:0 name:'_Z1jv' start:3000 stop:4000 id:2 workgroup:{64,1,1} grid:{64,1,1} lds:2048 scratch:0 kernel_id:2
RTG: pid:7 tid:7 summary dispatches:2 barriers:0 copies:0 hsa_calls:0 hip_calls:0 lost:0
T
"$B/rtg-convert" --csv csv --stats=st --sqlite t.db -o t.json t.txt 2>&1
echo "convert exit $?"
cut -d, -f6-7,12-16 csv/h/7_kernel_trace.csv
sqlite3 t.db 'SELECT kernelId, name, archVgpr IS NULL, staticLds FROM rtg_kernel'
ls st | grep -c occupancy
python3 -c "
import json
for e in json.load(open('t.json'))['traceEvents']:
    if e.get('cat') == 'kernel': print(e['name'], {k: v for k, v in e['args'].items() if k in ('kernel_id', 'arch_vgpr', 'static_lds', 'lds')})"
