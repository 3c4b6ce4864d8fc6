# rtg-convert on MPI records written by hand: two hosts whose boot clocks
# are 2000 s apart, node-b's wall clock 2 ms ahead in its pairs, two
# MPI_Barrier instances (node-b's rank enters each last, 50 and 60 us
# after node-a's), an MPI_Allgather (node-b's rank in 10 us later, out
# 5 us later) and an MPI_Bcast that node-b's rank, its root, leaves before
# node-a's enters (a rooted collective bounds nothing).  The barriers bound
# node-b's shift to [-2000 s - 90 us, -2000 s + 20 us], the allgather to
# [-45 us, +30 us] around -2000 s: the offset is the midpoint of
# [-45 us, +20 us], -2000 s - 12.5 us, with 32.5 us of uncertainty (the
# pairs alone: +2 ms off).  --analyze, on the aligned axis: rank 1 arrives
# last at both barriers (rank 0 waits 37.5 + 47.5 us), rank 0 at the
# allgather (the offset's 12.5 us error outweighs node-b's 10 us) and at
# the broadcast, whose 112.5 us wait the verdict names.
# A broken MPI line is one warning with its file and line; --no-align
# keeps each host's clock and still finds the straggler.
S=1000000000
wall=1795000000000000000
us() { echo $(($1 * 1000)); }
a0=$((1000 * S)) b0=$((3000 * S))
{
  echo "RTG: pid:11 tid:11 trace format:1 host:node-a clock:boottime boot_ns:$a0 realtime_ns:$((wall)) rank:0 realtime_err:20"
  t=$((a0 + S / 2))
  echo "MPI: pid:11 tid:11 call func:MPI_Barrier start:$t dur:$(us 100) ret:0 comm:0.2.0 size:2 rank:0 seq:1"
  t=$((a0 + S))
  echo "MPI: pid:11 tid:11 call func:MPI_Barrier start:$t dur:$(us 80) ret:0 comm:0.2.0 size:2 rank:0 seq:2"
  echo "MPI: pid:11 tid:11 call func:MPI_Isend start:$((t + S / 10)) dur:$(us 3) ret:0 comm:0.2.0 size:2 rank:0 peer:1 bytes:64 req:77"
  echo "MPI: pid:11 tid:11 call func:MPI_Wait start:$((t + S / 5)) dur:$(us 7) ret:0 req:77"
  t=$((a0 + 13 * S / 10))
  echo "MPI: pid:11 tid:11 call func:MPI_Allgather start:$t dur:$(us 40) ret:0 comm:0.2.0 size:2 rank:0 bytes:4 seq:3"
  t=$((a0 + 14 * S / 10))
  echo "MPI: pid:11 tid:11 call func:MPI_Bcast start:$((t + $(us 100))) dur:$(us 5) ret:0 comm:0.2.0 size:2 rank:0 root:1 bytes:4 seq:4"
  echo "RTG: pid:11 tid:11 summary dispatches:0 barriers:0 copies:0 hsa_calls:0 hip_calls:0 lost:0 mpi_calls:6 boot_ns:$((a0 + 3 * S / 2)) realtime_ns:$((wall + 3 * S / 2)) realtime_err:20"
} > rtg_trace.txt.11
{
  echo "RTG: pid:22 tid:22 trace format:1 host:node-b clock:boottime boot_ns:$b0 realtime_ns:$((wall + 2000000)) rank:1 realtime_err:20"
  t=$((b0 + S / 2))
  echo "MPI: pid:22 tid:22 call func:MPI_Barrier start:$((t + $(us 50))) dur:$(us 60) ret:0 comm:0.2.0 size:2 rank:1 seq:1"
  echo "MPI: pid:22 tid:22 call start:$t dur:5"
  t=$((b0 + S))
  echo "MPI: pid:22 tid:22 call func:MPI_Barrier start:$((t + $(us 60))) dur:$(us 30) ret:0 comm:0.2.0 size:2 rank:1 seq:2"
  t=$((b0 + 13 * S / 10))
  echo "MPI: pid:22 tid:22 call func:MPI_Allgather start:$((t + $(us 10))) dur:$(us 35) ret:0 comm:0.2.0 size:2 rank:1 bytes:4 seq:3"
  t=$((b0 + 14 * S / 10))
  echo "MPI: pid:22 tid:22 call func:MPI_Bcast start:$t dur:$(us 10) ret:0 comm:0.2.0 size:2 rank:1 root:1 bytes:4 seq:4"
  echo "RTG: pid:22 tid:22 summary dispatches:0 barriers:0 copies:0 hsa_calls:0 hip_calls:0 lost:0 mpi_calls:4 boot_ns:$((b0 + 3 * S / 2)) realtime_ns:$((wall + 2000000 + 3 * S / 2)) realtime_err:20"
} > rtg_trace.txt.22
"$B/rtg-convert" -v -o a.json --analyze=an.json rtg_trace.txt.11 rtg_trace.txt.22 > v.txt 2> err.txt
echo "exit $?"
cat err.txt
grep -E '^hosts on one|^  host node-' v.txt | sort -u
sed -n '/^MPI:/,/^  rank 1/p' v.txt
python3 - <<'PY'
import json
an = json.load(open("an.json"))
for h in an["hosts"]:
    print({k: h[k] for k in ("host", "offset_ns", "source", "uncertainty_ns") if k in h},
          h.get("collectives"), h.get("bounds_ns"))
print(json.dumps(an["mpi"]["straggler"], sort_keys=True))
for r in an["mpi"]["per_rank"]:
    print(json.dumps(r, sort_keys=True))
ev = json.load(open("a.json"))["traceEvents"]
for e in sorted((e for e in ev if e.get("cat") == "mpi"), key=lambda e: (e["ts"], e["pid"])):
    print(e["name"], "%.3f" % e["ts"], "%.3f" % e["dur"], e["args"]["args"])
PY
"$B/rtg-convert" -q --no-align -o n.json --analyze=na.json rtg_trace.txt.11 rtg_trace.txt.22 > /dev/null 2>&1
echo "--no-align exit $?"
python3 -c "
import json; a = json.load(open('na.json'))
print('hosts' in a, a['mpi']['straggler']['rank'], a['mpi']['straggler']['last'])"
