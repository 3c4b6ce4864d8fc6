# rtg-convert on memory records written by hand, in reverse time order:
# allocations on three agents, a free, the same address freed again and an
# address never allocated (unknown frees), an address allocated again after
# its free, a lock and its unlock (not memory in use), and a record of an
# unknown op, one without its stop and one that stops before it starts
# (each warned with its line, skipped).  The JSON counter per agent, the
# memory_allocation_trace.csv rows, the MEMORY summary with the leaks per
# agent and memory_stats.csv, the rtg_memory table of --sqlite; --analyze
# takes the file too.
cat >mem.txt <<'T'
RTG: pid:100 tid:100 trace format:1 host:h clock:boottime
RTG: pid:100 tid:100 agent index:0 type:cpu name:'cpu'
RTG: pid:100 tid:100 agent index:1 type:gpu name:'gfx90a'
RTG: pid:100 tid:100 agent index:2 type:gpu name:'gfx942'
RTG: pid:100 tid:101 memory op:bogus start:7500 stop:7510 addr:1
RTG: pid:100 tid:101 memory op:alloc start:7400
RTG: pid:100 tid:101 memory op:alloc start:7300 stop:7200 addr:8 size:1 agent:1 kind:device
RTG: pid:100 tid:101 memory op:alloc start:7000 stop:7010 addr:4096 size:70 agent:1 kind:device
RTG: pid:100 tid:101 memory op:unlock start:6500 stop:6510 addr:65536
RTG: pid:100 tid:101 memory op:free start:6000 stop:6010 addr:999
RTG: pid:100 tid:101 memory op:free start:5000 stop:5010 addr:4096
RTG: pid:100 tid:101 memory op:free start:4000 stop:4010 addr:4096 corr:3
RTG: pid:100 tid:101 memory op:lock start:3500 stop:3510 addr:65536 size:4096 agent:0 kind:pinned
RTG: pid:100 tid:101 memory op:alloc start:3000 stop:3010 addr:12288 size:30 agent:0 kind:host corr:2
RTG: pid:100 tid:101 memory op:alloc start:2000 stop:2010 addr:8192 size:50 agent:2 kind:device
RTG: pid:100 tid:101 memory op:alloc start:1000 stop:1010 addr:4096 size:100 agent:1 kind:device corr:1
RTG: pid:100 tid:100 summary dispatches:0 barriers:0 copies:0 hsa_calls:0 hip_calls:0 lost:0
T
. "$TOP/tests/e2e/08-memory.inc"
mem_outputs
echo "-- memory_stats.csv"
cat st/memory_stats.csv
echo "-- --analyze, --sqlite"
"$B/rtg-convert" -q --analyze=an.json mem.txt >/dev/null; echo "analyze exit $?"
mem_sqlite "op, kind, agent, device, start, size, corr, inUse"
