# MPI calls in the trace (RTG_MPI): 2 Open MPI ranks, 2 rounds of
# MPI_Barrier, a kernel, MPI_Allreduce (4 bytes), MPI_Isend/MPI_Irecv to
# and from the neighbour with MPI_Waitall, MPI_Bcast from rank 0.  Each
# rank's MPI records in order (times and request handles left out): every
# collective has the same number on its communicator on both ranks; the
# summary counts them; the program prints the same untraced, traced, and
# with RTG_MPI=0, which records none.  rtg-convert: each call a slice of
# category mpi in the JSON, in Perfetto, in SQLite's rocpd_api, an OTF2
# region of paradigm MPI.
. "$TOP/tests/e2e/mpi-common.sh"
mpi_untraced 2 "$B/progs/tpmpi_barrier" 2 | sort > untraced.txt
mpi_run 2 "$B/progs/tpmpi_barrier" 2 | sort > traced.txt
echo "mpirun exit $?; output as untraced: $(cmp -s untraced.txt traced.txt && echo yes || echo no), ranks that printed: $(grep -c '^rank' traced.txt)"
echo "traces: $(ls rtg_trace.txt.* | wc -l)"
for r in 0 1; do
  f=$(for x in rtg_trace.txt.*; do head -n1 "$x" | grep -q " rank:$r " && echo "$x"; done)
  # (MPI_Finalize, after hsa_shut_down: recorded where the tracer is still
  # on then, ROCm 6 and later)
  grep '^MPI: ' "$f" | grep -v ' func:MPI_Finalize ' | sed -E "s/^MPI: pid:[0-9]+ tid:[0-9]+ call /rank $r: /; s/ start:[0-9]+ dur:[0-9]+//; s/ req:[0-9]+/ req:R/" > "calls.$r"
  n=$(grep -c '^MPI: ' "$f")
  grep -q " mpi_calls:$n" "$f" && echo "rank $r: $(grep -c . "calls.$r") MPI records before MPI_Finalize, all as the summary counts"
done
cat calls.0 calls.1
# collectives: (comm, seq, function) alike on both ranks
c0=$(grep ' seq:' calls.0 | sed -E 's/rank 0: func:([^ ]+) .*comm:([^ ]+) .*seq:([0-9]+).*/\1 \2 \3/')
c1=$(grep ' seq:' calls.1 | sed -E 's/rank 1: func:([^ ]+) .*comm:([^ ]+) .*seq:([0-9]+).*/\1 \2 \3/')
[ -n "$c0" ] && [ "$c0" = "$c1" ] && echo "collectives: the same function, communicator and number on both ranks"
mkdir off && cd off
RTG_MPI=0 mpi_run 2 "$B/progs/tpmpi_barrier" 2 | sort > traced.txt
echo "RTG_MPI=0: output as untraced: $(cmp -s ../untraced.txt traced.txt && echo yes || echo no), MPI records: $(cat rtg_trace.txt.* | grep -c '^MPI: '), summaries with mpi_calls: $(grep -c ' mpi_calls:' rtg_trace.txt.* | awk -F: '{s += $2} END {print s}')"
cd ..
"$B/rtg-convert" -q -o a.json --sqlite a.rpd rtg_trace.txt.*
"$B/rtg-convert" -q -o a.pftrace rtg_trace.txt.*
echo "convert exit $?"
"$B/rtg-convert" -q --otf2 o2 rtg_trace.txt.*
echo "OTF2: exit $?, MPI regions entered as records: $(test "$(otf2-print o2/trace.otf2 | grep -c '^ENTER .*Region: "MPI_')" = "$(cat rtg_trace.txt.* | grep -c '^MPI: ')" && echo yes), paradigm MPI: $(otf2-print -G o2/trace.otf2 | grep 'Name: "MPI_.*Paradigm: MPI' | grep -vc MPI_Finalize)"
python3 - <<'PY'
import json, sqlite3
ev = json.load(open("a.json"))["traceEvents"]
mpi = [e for e in ev if e.get("cat") == "mpi"]
import glob
n = sum(1 for f in glob.glob("rtg_trace.txt.*") for l in open(f) if l.startswith("MPI: "))
print("JSON: as many MPI slices as records: %s, all complete events with args: %s" %
      (len(mpi) == n, all(e["ph"] == "X" and "args" in e["args"] for e in mpi)))
names = {e["args"]["name"] for e in ev if e.get("ph") == "M" and e["name"] == "process_name"}
print("JSON: an MPI process per host:", any(n.endswith("MPI Activity") for n in names))
b = [e for e in mpi if e["name"] == "MPI_Barrier"][0]
print("a barrier's args:", " ".join(w for w in b["args"]["args"].split() if not w.startswith("rank:")))
db = sqlite3.connect("a.rpd")
print("SQLite: as many MPI rows:", db.execute("select count(*) from rocpd_api a join rocpd_string s "
                                      "on a.domain_id = s.id where s.string = 'mpi'").fetchone()[0] == n)
print("Perfetto: names MPI_Waitall:", b"MPI_Waitall" in open("a.pftrace", "rb").read())
PY
