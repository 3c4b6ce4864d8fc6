# MPI calls in --csv, --stats, --summary and --html (records written by
# hand): two ranks, each an MPI_Barrier, an MPI_Isend, a run of 40
# MPI_Test calls that completed nothing in one record (polls:40) and the
# completing MPI_Test, and MPI_Finalize.  --csv writes
# <pid>_mpi_api_trace.csv (rtg's own file: rocprofv3 has no MPI CSV), a
# row per record with its times, bytes, the calls it stands for and its
# identification; --stats mpi_api_stats.csv and --summary an MPI_API
# table, the run of tests counting 40 calls of its busy time; --html a
# "tid T MPI" track per thread with a slice per record.  A trace without
# MPI calls gets no MPI file or table.
S=1000000000
for r in 0 1; do
  p=$((100 + r)) b=$(((r + 1) * S))
  {
    echo "RTG: pid:$p tid:$p trace format:1 host:node clock:boottime boot_ns:$b realtime_ns:1795000000000000000 rank:$r"
    echo "MPI: pid:$p tid:$p call func:MPI_Barrier start:$((b + 1000)) dur:5000 ret:0 comm:0.2.0 size:2 rank:$r seq:1"
    echo "MPI: pid:$p tid:$p call func:MPI_Isend start:$((b + 7000)) dur:300 ret:0 comm:0.2.0 size:2 rank:$r peer:$((1 - r)) bytes:256 req:9"
    echo "MPI: pid:$p tid:$p call func:MPI_Test start:$((b + 8000)) dur:100 ret:0 req:9 done:0 polls:40 last:$((b + 50000)) last_dur:200 busy:4000"
    echo "MPI: pid:$p tid:$p call func:MPI_Test start:$((b + 51000)) dur:150 ret:0 req:9 done:1"
    echo "MPI: pid:$p tid:$p call func:MPI_Finalize start:$((b + 60000)) dur:2000 ret:0"
    echo "RTG: pid:$p tid:$p summary dispatches:0 barriers:0 copies:0 hsa_calls:0 hip_calls:0 lost:0 mpi_calls:43"
  } > rtg_trace.txt.$p
done
C="$B/rtg-convert"
"$C" -q --csv csv --stats=st --summary --html r.html rtg_trace.txt.* > sum.txt
echo "convert: exit $?"
ls csv/node
sed -n '/^MPI_API/,/^$/p' sum.txt | sed -E 's/ +/ /g'
python3 - <<'PY'
import csv, json, re
rows = list(csv.DictReader(open("csv/node/100_mpi_api_trace.csv")))
print("csv header:", ",".join(rows[0].keys()))
for r in rows:
    print("  %s %s %s-%s bytes=%s calls=%s args=%s" % (r["Domain"], r["Function"], r["Start_Timestamp"],
          r["End_Timestamp"], r["Bytes"], r["Calls"], r["Arguments"]))
st = {r["Name"]: r for r in csv.DictReader(open("st/mpi_api_stats.csv"))}
print("stats:", "; ".join("%s calls %s total %s" % (n, st[n]["Calls"], st[n]["TotalDurationNs"]) for n in sorted(st)))
html = open("r.html").read()
meta = json.loads(re.search(r'<script type="application/json" id="rtg-meta">(.*?)</script>', html, re.S)[1])
mpi = [t for t in meta["tracks"] if t["kind"] == "mpi"]
print("html: MPI tracks:", ", ".join("%s (%d slices)" % (t["label"], t["n"]) for t in mpi))
PY
# a trace without MPI calls: no MPI file, table or track
grep -v '^MPI: ' rtg_trace.txt.100 | sed 's/ mpi_calls:43//' > plain.txt
echo "HIP: pid:100 tid:100 hipMalloc ret=0 @$((S + 100)) +500 corr:1" >> plain.txt
"$C" -q --csv csv2 --stats=st2 --summary --html p.html plain.txt > sum2.txt
echo "no MPI: exit $?, MPI files: $(ls csv2/node st2 | grep -c mpi), MPI_API table: $(grep -c MPI_API sum2.txt), mpi tracks: $(grep -c '"kind":"mpi"' p.html)"
