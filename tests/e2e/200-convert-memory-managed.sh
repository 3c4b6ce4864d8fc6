# rtg-convert on memory records of managed memory (an SVM range, kind
# managed, as the tracer writes for HIP 7.2's hipMallocManaged), written by
# hand beside a virtual memory API handle and a host pool allocation: the
# managed range counts in use on its agent (the JSON counter), its rows in
# memory_allocation_trace.csv are MEMORY_ALLOCATION_ALLOCATE and _FREE (the
# handle's VMEM_ALLOCATE and VMEM_FREE), the rtg_memory table of --sqlite
# names its kind, and --stats lists it among the leaks when never freed.
cat >mem.txt <<'T'
RTG: pid:100 tid:100 trace format:1 host:h clock:boottime
RTG: pid:100 tid:100 agent index:0 type:cpu name:'cpu'
RTG: pid:100 tid:100 agent index:1 type:gpu name:'gfx90a'
RTG: pid:100 tid:101 memory op:alloc start:1000 stop:1010 addr:4096 size:100 agent:0 kind:host api:hsa_amd_memory_pool_allocate corr:1
RTG: pid:100 tid:101 memory op:alloc start:2000 stop:2010 addr:2097152 size:2097152 agent:0 kind:managed api:hsa_amd_svm_attributes_set corr:2
RTG: pid:100 tid:101 memory op:alloc start:3000 stop:3010 addr:77 size:4096 agent:1 kind:device api:hsa_amd_vmem_handle_create corr:3
RTG: pid:100 tid:101 memory op:free start:4000 stop:4010 addr:2097152 api:hsa_amd_vmem_address_free corr:4
RTG: pid:100 tid:101 memory op:free start:5000 stop:5010 addr:77 api:hsa_amd_vmem_handle_release corr:5
RTG: pid:100 tid:101 memory op:alloc start:6000 stop:6010 addr:8388608 size:2097152 agent:0 kind:managed api:hsa_amd_svm_attributes_set corr:6
RTG: pid:100 tid:100 summary dispatches:0 barriers:0 copies:0 hsa_calls:0 hip_calls:0 lost:0
T
. "$TOP/tests/e2e/08-memory.inc"
mem_outputs
echo "-- --sqlite"
mem_sqlite "op, kind, agent, start, size, corr, inUse"
