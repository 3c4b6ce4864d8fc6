# Memory records: tp_hip_alloc allocates and frees in a known pattern
# (hipMalloc, hipHostMalloc, hipFree, hipHostRegister/Unregister,
# hipHostFree, one allocation never freed).  The tracer records each HSA
# pool allocation, free, lock and unlock once, with the HIP call's corr,
# without HIP or HSA API tracing too; rtg-convert's JSON counter and
# memory_allocation_trace.csv give the same in-use curve per agent (the
# Perfetto trace a counter track per agent), and the program's output is
# unchanged.  Where the GPU offers KFD's SVM API (the simulated GPU of sid
# and experimental, as real kernels), HIP 6.4 and 7.2 make managed memory
# (hipMallocManaged) an SVM range of reserved addresses, not a pool
# allocation: HIP 7.2 through HSA (hsa_amd_vmem_address_reserve_align,
# hsa_amd_svm_attributes_set; hipFree: hsa_amd_vmem_address_free), recorded
# as kind managed on the host agent; HIP 6.4 through the operating system
# (mmap, then hsa_amd_svm_attributes_set; hipFree: munmap), recorded the
# same from HIP's mmap and munmap, the free as api munmap.
. "$TOP/tests/e2e/02-tracer.inc"
"$PROGS/tp_hip_alloc" >plain.out 2>&1
traced "$PROGS/tp_hip_alloc" >traced.out 2>&1
cmp plain.out traced.out && echo "application output unchanged"
cat traced.out
f=$(trace_of)
echo "-- the records of the pattern's HIP calls (op kind size), in time order"
grep ' memory op:' "$f" | grep ' corr:' | sort -t@ -k1,1 |
  awk '{ for (i = 5; i <= NF; i++) { split($i, kv, ":"); v[kv[1]] = kv[2] }
         print v["start"], v["op"], (v["kind"] == "" ? "-" : v["kind"]), (v["size"] == "" ? "-" : v["size"]); delete v }' |
  sort -n | cut -d' ' -f2-
"$B/rtg-convert" -q -o out.json --csv csv "$f" || echo "rtg-convert failed"
echo "-- in use per agent after each change, from the JSON counter"
memory_curve out.json
echo "-- the same from memory_allocation_trace.csv"
python3 - csv <<'PY'
import csv, glob, sys
rows = []
for p in glob.glob(sys.argv[1] + "/*/*_memory_allocation_trace.csv"):
    rows += list(csv.DictReader(open(p)))
agent_of, use, curve = {}, {}, {}
for r in sorted(rows, key=lambda r: int(r["Start_Timestamp"])):
    if r["Operation"] == "MEMORY_ALLOCATION_ALLOCATE":
        a = agent_of[r["Address"]] = r["Agent_Id"]
        use[a] = use.get(a, 0) + int(r["Allocation_Size"])
    else:
        a = agent_of.pop(r["Address"])
        use[a] -= int(r["Allocation_Size"])
    curve.setdefault(a, []).append(use[a])
for a in sorted(curve):
    print(a, " ".join(str(v) for v in curve[a]))
PY
echo "-- Perfetto: a counter track per agent, the trace as the JSON"
. "$TOP/tests/e2e/12-perfetto.inc"
pf_check "$f" >pf.out 2>&1 && echo "check_pftrace passed" || cat pf.out
grep -o 'name: "[^"]*memory in use"' pf.dec | sed 's/ (.*)//' | sort -u
echo "-- without HIP or HSA API tracing: as many records, no API call"
n=$(grep -c ' memory op:' "$f")
rm -f rtg_trace.txt.*
RTG_HIP_API_FILTER= RTG_HSA_API_FILTER= traced "$PROGS/tp_hip_alloc" >/dev/null 2>&1
g=$(trace_of)
echo "memory records: $n traced, $(grep -c " memory op:" "$g") untraced; API calls untraced: $(grep -c "^H[SI][AP]: .* ret=" "$g")"
