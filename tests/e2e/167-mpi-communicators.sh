# MPI records beyond the world communicator (tpmpi_comms, 4 ranks): the
# world split into even and odd halves, an MPI_Allreduce on each half, an
# MPI_Bcast on a duplicate of it, MPI_Allgather with MPI_IN_PLACE (its
# bytes: what each rank receives from one), MPI_Sendrecv, MPI_Ibarrier
# with MPI_Wait, MPI_Iallreduce polled with MPI_Test.  Every rank of a
# communicator names it alike (LEADER.SIZE.K): the halves are 0.2.0 and
# 1.2.0, their duplicates 0.2.1 and 1.2.1; each collective instance has
# one function and every member rank; each wait and the last test name
# the request their start made (the tests that completed nothing are left
# out: how many there are is the machine's timing).  The program prints
# the same untraced.
. "$TOP/tests/e2e/mpi-common.sh"
mpi_untraced 4 "$B/progs/tpmpi_comms" | sort > untraced.txt
mpi_run 4 "$B/progs/tpmpi_comms" | sort > traced.txt
echo "mpirun exit $?; output as untraced: $(cmp -s untraced.txt traced.txt && echo yes || echo no), ranks that printed: $(grep -c '^rank' traced.txt)"
python3 - <<'PY'
import collections, glob, re
recs = {}
for f in glob.glob("rtg_trace.txt.*"):
    rank = int(re.search(r" rank:(\d+)", open(f).readline())[1])
    recs[rank] = [dict(re.findall(r"(\w+):(\S+)", l.split(" call ", 1)[1]))
                  for l in open(f) if l.startswith("MPI: ")]
for r in sorted(recs):
    out = []
    for c in recs[r]:
        if c["func"] == "MPI_Test" and c.get("done") == "0":
            continue  # (as many as the machine's timing makes)
        if c["func"] == "MPI_Finalize":
            continue  # (after hsa_shut_down: recorded from ROCm 6 on)
        out.append(" ".join([c["func"]] + ["%s:%s" % (k, c[k]) for k in
                   ("comm", "size", "rank", "peer", "root", "bytes", "seq", "done") if k in c]))
    print("rank %d:" % r, "; ".join(out))
inst = collections.defaultdict(list)
for r, cs in recs.items():
    for c in cs:
        if "seq" in c: inst[(c["comm"], c["seq"])].append((c["func"], int(c["size"]), int(c["rank"])))
ok = all(len({f for f, _, _ in v}) == 1 and len(v) == v[0][1] and
         sorted(k for _, _, k in v) == list(range(v[0][1])) for v in inst.values())
print("collective instances:", len(inst), "; one function and every member rank each:", ok)
reqs = True
for r, cs in recs.items():
    start = {}
    for c in cs:
        if c["func"] in ("MPI_Ibarrier", "MPI_Iallreduce"): start = c["req"]
        if c["func"] == "MPI_Wait" or (c["func"] == "MPI_Test" and c["done"] == "1"):
            reqs &= c["req"] == start
print("waits and the completing test name their start's request:", reqs)
PY
