# Repeated MPI tests coalesced (RTG_MPI_POLL): tpmpi_poll's rank 0 polls
# a receive with MPI_Test for 30 ms, rank 1 one with MPI_Testall.  Each
# rank's tests that completed nothing are one record (polls:N, N >= 2,
# last and last_dur the last call's, busy the sum of the durations, within
# the span), before the test that completes (done:1, a record of its own);
# the summary counts every call (mpi_calls: the records' polls).  With
# RTG_MPI_POLL=each every call is a record of its own.  The program prints
# the same untraced and traced.  rtg-convert: the record is one slice from
# the first call's start to the last one's end, its args with polls and
# busy (JSON).
. "$TOP/tests/e2e/mpi-common.sh"
[ -x "$B/progs/tpmpi_poll" ] || { echo "SKIP: tpmpi_poll not built (no mpicc at build time)"; exit 77; }
mpi_untraced 2 "$B/progs/tpmpi_poll" | sort > untraced.txt
mpi_run 2 "$B/progs/tpmpi_poll" | sort > traced.txt
echo "mpirun exit $?; output as untraced: $(cmp -s untraced.txt traced.txt && echo yes || echo no)"
mkdir each && (cd each && RTG_MPI_POLL=each mpi_run 2 -x RTG_MPI_POLL "$B/progs/tpmpi_poll" | sort > traced.txt)
echo "each: output as untraced: $(cmp -s untraced.txt each/traced.txt && echo yes || echo no)"
"$B/rtg-convert" -q -o a.json rtg_trace.txt.*
echo "convert exit $?"
python3 - <<'PY'
import glob, json, re
def recs(pattern):
    out = {}
    for f in glob.glob(pattern):
        lines = open(f).read().splitlines()
        rank = int(re.search(r" rank:(\d+)", lines[0])[1])
        calls = [dict(re.findall(r"(\w+):(\S+)", l.split(" call ", 1)[1])) for l in lines if l.startswith("MPI: ")]
        summ = [l for l in lines if " summary " in l]
        out[rank] = (calls, int(re.search(r" mpi_calls:(\d+)", summ[-1])[1]) if summ else None)
    return out
co, ea = recs("rtg_trace.txt.*"), recs("each/rtg_trace.txt.*")
for r, fn in ((0, "MPI_Test"), (1, "MPI_Testall")):
    calls, counted = co[r]
    tests = [c for c in calls if c["func"] == fn]
    idle = [c for c in tests if c.get("done") == "0"]
    ok = len(idle) == 1 and int(idle[0].get("polls", 0)) >= 2 and tests[-1].get("done") == "1" and len(tests) == 2
    c = idle[0] if idle else {}
    s, d = int(c.get("start", 0)), int(c.get("dur", 0))
    last, ld, busy = int(c.get("last", 0)), int(c.get("last_dur", 0)), int(c.get("busy", 0))
    times = last >= s + d and busy >= d + ld and busy <= last + ld - s
    n = sum(int(x.get("polls", 1)) for x in calls)
    print("rank %d, coalesce: %s: one record of the tests that completed nothing, polls >= 2, then the completing one: %s; times: %s; mpi_calls counts every call: %s"
          % (r, fn, ok, times, counted == n))
    ecalls, _ = ea[r]
    etests = [c for c in ecalls if c["func"] == fn]
    print("rank %d, each: %s: a record per call, none with polls: %s"
          % (r, fn, len(etests) > 2 and not any("polls" in c for c in etests) and etests[-1].get("done") == "1"))
ev = json.load(open("a.json"))["traceEvents"]
sl = [e for e in ev if e.get("cat") == "mpi" and "polls:" in e["args"].get("args", "")]
rec = [c for r in co for c in co[r][0] if "polls" in c]
match = len(sl) == len(rec) == 2 and sorted(round(e["dur"] * 1000) for e in sl) == \
    sorted(int(c["last"]) + int(c["last_dur"]) - int(c["start"]) for c in rec)
print("JSON: one slice per record of repeated tests, first start to last end, polls and busy in its args:",
      match and all("busy:" in e["args"]["args"] for e in sl))
PY
