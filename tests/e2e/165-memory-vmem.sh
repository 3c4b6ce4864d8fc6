# Memory records of the HSA virtual memory API (issue 29; ROCm 6.0 on, where
# HIP 7's stream-ordered pools, hipMallocAsync, take their memory): tp_vmem
# makes 2 MiB and 6 MiB handles on the GPU's device pool, reserves and frees
# an address range, and releases the handles.  Each handle made is an
# allocation (its handle for the address, as rocprofv3's VMEM_ALLOCATE),
# each release a free; the address range is no memory and has no record.
# rtg-convert's JSON counter gives the in-use curve of the GPU, the CSV
# rocprofv3's VMEM operations.  Runtimes without the API (ROCm 5.2) or
# refusing its handles on the simulated GPU (5.7) say so.
. "$TOP/tests/e2e/02-tracer.inc"
"$PROGS/tp_vmem" >plain.out 2>&1
traced "$PROGS/tp_vmem" >traced.out 2>&1
cmp plain.out traced.out && echo "application output unchanged"
cat traced.out
grep -q "no virtual memory API\|refuses a handle" traced.out && exit 0
f=$(trace_of)
echo "-- the virtual memory API's records (op api size kind agent), in time order"
grep ' memory op:' "$f" | grep ' api:hsa_amd_vmem_' |
  awk '{ for (i = 5; i <= NF; i++) { split($i, kv, ":"); v[kv[1]] = kv[2] }
         print v["start"], v["op"], v["api"], (v["size"] == "" ? "-" : v["size"]),
               (v["kind"] == "" ? "-" : v["kind"]), (v["agent"] == "" ? "-" : v["agent"]); delete v }' |
  sort -n | cut -d' ' -f2-
echo "-- each release frees the handle one made: $(grep ' memory op:' "$f" | grep ' api:hsa_amd_vmem_' |
  awk '{ for (i = 5; i <= NF; i++) { split($i, kv, ":"); v[kv[1]] = kv[2] }
         n[v["addr"]] += (v["op"] == "alloc" ? 1 : -1); delete v }
       END { bad = 0; k = 0; for (a in n) { k++; if (n[a]) bad++ } print k " handles, " bad " unpaired" }')"
"$B/rtg-convert" -q -o out.json --csv csv "$f" || echo "rtg-convert failed"
echo "-- in use per agent after each change, from the JSON counter"
memory_curve out.json
echo "-- memory_allocation_trace.csv: the handles' rows (operation, size, agent named)"
python3 - csv <<'PY'
import csv, glob, sys
rows = []
for p in glob.glob(sys.argv[1] + "/*/*_memory_allocation_trace.csv"):
    rows += [r for r in csv.DictReader(open(p)) if "VMEM" in r["Operation"]]
for r in sorted(rows, key=lambda r: int(r["Start_Timestamp"])):
    print(r["Operation"], r["Allocation_Size"], "agent" if r["Agent_Id"] else "-")
PY
