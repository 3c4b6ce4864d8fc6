# Stream-ordered memory (tp_hip_async: hipMallocAsync/hipFreeAsync, the
# memory filled by the GPU and read back).  HIP 7 takes pool memory through
# the HSA virtual memory API: a handle of physical memory exported as a
# dma-buf and mapped into a reserved range (the simulated GPU's KFD answers
# EXPORT_DMABUF with the handle's memfd, libdrm's import and GPU mapping map
# it there).  The program runs the same untraced and traced; on HIP 7 the
# pool's handles are memory records (vmem alloc and free, paired by handle)
# and VMEM rows of memory_allocation_trace.csv.
. "$TOP/tests/e2e/02-tracer.inc"
timeout 120 "$PROGS/tp_hip_async" >plain.out 2>plain.err
echo "untraced: exit status $?"
timeout 120 env HSA_TOOLS_LIB="$TRACER" "$PROGS/tp_hip_async" >traced.out 2>traced.err
echo "traced: exit status $?"
cmp plain.out traced.out && echo "application output unchanged"
cat traced.out
grep -q "virtual memory API: no" traced.out && exit 0
f=$(trace_of)
echo "-- the virtual memory API's records: how many, op api size agent"
grep ' memory op:' "$f" | grep ' api:hsa_amd_vmem_' |
  awk '{ for (i = 5; i <= NF; i++) { split($i, kv, ":"); v[kv[1]] = kv[2] }
         print v["op"], v["api"], (v["size"] == "" ? "-" : v["size"]), (v["agent"] == "" ? "-" : "agent"); delete v }' |
  sort | uniq -c
echo "-- each release frees the handle one made: $(grep ' memory op:' "$f" | grep ' api:hsa_amd_vmem_' |
  awk '{ for (i = 5; i <= NF; i++) { split($i, kv, ":"); v[kv[1]] = kv[2] }
         n[v["addr"]] += (v["op"] == "alloc" ? 1 : -1); delete v }
       END { bad = 0; k = 0; for (a in n) { k++; if (n[a]) bad++ } print (k ? "handles" : "no handles") ", " bad " unpaired" }')"
"$B/rtg-convert" -q --csv csv "$f" || echo "rtg-convert failed"
echo "-- memory_allocation_trace.csv: VMEM operations"
python3 - csv <<'PY'
import csv, glob, sys
ops = set()
for p in glob.glob(sys.argv[1] + "/*/*_memory_allocation_trace.csv"):
    ops |= {r["Operation"] for r in csv.DictReader(open(p)) if "VMEM" in r["Operation"]}
print("\n".join(sorted(ops)) or "none")
PY
