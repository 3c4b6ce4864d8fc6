# The straggler verdict.  4 Open MPI ranks, 10 rounds of MPI_Barrier, a
# kernel, MPI_Allreduce; rank 2 sleeps 20 ms before each barrier.
# --analyze names rank 2 as the last to arrive at the barriers, and the
# others' wait for it: at least 3 ranks x 10 x 20 ms less a fifth (the
# others' own late starts), in its text and its JSON.  Each rank's time
# in MPI, on the GPU and at host work covers its run.  Per GPU, the idle
# time of the others' is host_sync in MPI_Barrier (a blocking MPI call is
# a synchronisation), rank 2's is its own work outside any call.
. "$TOP/tests/e2e/mpi-common.sh"
mpi_run 4 "$B/progs/tpmpi_barrier" 10 2 20000 > out.txt
echo "mpirun exit $?, ranks that printed: $(grep -c '^rank' out.txt)"
"$B/rtg-convert" -q --analyze=an.json rtg_trace.txt.* > an.txt
echo "analyze exit $?"
grep -E '^MPI:|^  verdict:|^  rank [0-9]' an.txt | sed -E 's/[0-9]+\.[0-9]+ (%|ms)/X \1/g; s/\([^ ]+ pid [0-9]+\)/(H pid P)/; s/at [0-9]+ collectives/at N collectives/; s/\(([0-9]+) of 10\)/(\1 of 10)/'
python3 - <<'PY'
import json
m = json.load(open("an.json"))["mpi"]
s = m["straggler"]
print("straggler:", s["rank"], s["function"], "last at", s["last"], "of", s["instances"])
print("others wait >= 480 ms:", s["others_wait_ns"] >= 480e6, "; share of the run in (0, 100]:",
      0 < s["others_wait_pct"] <= 100)
print("ranks:", [r["rank"] for r in m["per_rank"]])
ok = all(r["mpi_ns"] + r["host_work_ns"] == r["run_ns"] and r["gpu_busy_ns"] > 0 for r in m["per_rank"])
print("MPI + host work = run, GPU busy > 0 for every rank:", ok)
slow = [r for r in m["per_rank"] if r["rank"] == 2][0]
print("rank 2 waits least in MPI:", all(slow["mpi_ns"] <= r["mpi_ns"] for r in m["per_rank"]))
PY
python3 - <<'PY'
import glob, re
rank = {}
for f in glob.glob("rtg_trace.txt.*"):
    m = re.match(r"RTG: pid:(\d+) .* rank:(\d+)", open(f).readline())
    rank[m[1]] = int(m[2])
out = {}
for l in open("an.txt"):
    m = re.match(r"GPU0 \(pid (\d+)\): idle \d+ % of .*?: (\w+) \d+ % \(tid \d+, (in \w+|[^)]* (between|after|before) [^)]*)", l)
    if m:
        where = m[3] if m[3].startswith("in ") else "outside any call"
        out[rank[m[1]]] = "%s %s" % (m[2], where)
for r in sorted(out):
    print("rank %d's GPU idle: %s" % (r, out[r]))
PY
