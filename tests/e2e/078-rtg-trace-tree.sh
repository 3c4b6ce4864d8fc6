# rtg-trace -c converts the trace of every process of the tree it started:
# fork children, images started by exec (<name>.exec<k>.<pid>), ranks of an
# MPI-like job whose RTG_FILENAME has %hostname%/%rank% directories, one
# of them in another working directory, %pid% in a directory; a process
# that lost RTG_TRACE_LIST is found by the name pattern, and so is every
# process when no list can be made.  Each process's
# dispatches (its summary) are all in the JSON, on its own GPU lanes.
. "$TOP/tests/simgpu/env.sh"
PROGS="$B/progs"
host=$(hostname)
mkdir tmpdir
export TMPDIR="$PWD/tmpdir" # where rtg-trace makes its list
# check JSON TRACE...: per process (pid), the dispatches its traces' summaries
# count and the kernels the JSON shows on the lanes named after it
check() {
  python3 - "$@" <<'PY'
import json, re, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
lane = {}
for e in ev:
    if e.get("ph") == "M" and e["name"] == "thread_name":
        m = re.match(r"(\d+) GPU", e["args"]["name"])
        lane[(e["pid"], e["tid"])] = int(m.group(1)) if m else 0
want = {}
for f in sys.argv[2:]:
    text = open(f).read()
    pid = int(re.match(r"RTG: pid:(\d+) ", text).group(1))
    m = re.search(r" summary dispatches:(\d+) ", text)
    want[pid] = want.get(pid, 0) + (int(m.group(1)) if m else -1)
got = {}
for e in ev:
    if e.get("cat") == "kernel":
        p = lane.get((e["pid"], e["tid"]), -1)
        if p == 0 and len(want) == 1: p = list(want)[0]  # one process: lanes name no pid
        got[p] = got.get(p, 0) + 1
rows = sorted((want.get(p, -1), got.get(p, 0)) for p in set(want) | set(got))
print("  %d processes; dispatches in their traces / kernels in the JSON: %s" %
      (len(want), " ".join("%s/%s" % r for r in rows)))
PY
}
names() { sed -e "s/$host/HOST/g" -e 's/[0-9][0-9]*$/PID/' -e 's/p[0-9][0-9]*\//pPID\//' | sort; }

echo "-- fork and exec: tp_fork (a child), then tp_exec exec'ing itself"
"$B/rtg-trace" -c fe.json -- sh -c "'$PROGS/tp_fork' 3 exit >/dev/null && exec '$PROGS/tp_exec' 4 wait self" 2>err
echo "status $?; $(cat err)"
ls rtg_trace.txt.* | names
check fe.json rtg_trace.txt.*
rm -f rtg_trace.txt.*

echo "-- an MPI-like job: 3 ranks, -o out --filename='%hostname%/r%rank%/t', rank 2 elsewhere"
mkdir elsewhere
cat >job.sh <<SH
OMPI_COMM_WORLD_RANK=0 '$PROGS/tp_exec' 2 wait true &
OMPI_COMM_WORLD_RANK=1 '$PROGS/tp_exec' 3 wait self &
(cd elsewhere && OMPI_COMM_WORLD_RANK=2 '$PROGS/tp_exec' 4 wait true) &
wait
SH
"$B/rtg-trace" -o out --filename='%hostname%/r%rank%/t' -c job.json -- sh job.sh >/dev/null 2>err
echo "status $?; $(cat err)"
find out elsewhere -type f | names
check job.json $(find out elsewhere -type f)

echo "-- the issue's case: --filename='%hostname%_r%rank%', rank 3"
OMPI_COMM_WORLD_RANK=3 "$B/rtg-trace" -c --filename='%hostname%_r%rank%' -- "$PROGS/tp_exec" 2 wait true 2>err
echo "status $?; $(cat err)"
ls "${host}_r3".* | names
check rtg_trace.json "${host}_r3".*

echo "-- -c without a file, -o DIR and a pattern: DIR/rtg_trace.json"
"$B/rtg-trace" -c -o pat --filename='%hostname%/r%rank%/t' -- "$PROGS/tp_exec" 2 wait true 2>&1
echo "status $?"
check pat/rtg_trace.json pat/*/r0/t.*

echo "-- %pid% in a directory, a fork child"
"$B/rtg-trace" -c pid.json --filename='p%pid%/t' -- "$PROGS/tp_fork" 2 exit >/dev/null 2>err
echo "status $?; $(cat err)"
ls -d p*/t.* | names
check pid.json p*/t.*

echo "-- a process that lost RTG_TRACE_LIST is found by its name"
rm -f rtg_trace.txt.*
"$B/rtg-trace" -c lost.json -- env -u RTG_TRACE_LIST "$PROGS/tp_exec" 2 wait self >/dev/null 2>err
echo "status $?; $(cat err)"
ls rtg_trace.txt.* | names
check lost.json rtg_trace.txt.*
rm -f rtg_trace.txt.*

echo "-- no list can be made (TMPDIR missing): said, the traces found by their names"
# (the simulated GPU keeps files in TMPDIR: the program gets a good one back)
TMPDIR=/nonexistent "$B/rtg-trace" -c nolist.json -- env TMPDIR="$TMPDIR" "$PROGS/tp_exec" 2 wait self >/dev/null 2>err
echo "status $?"; cat err
check nolist.json rtg_trace.txt.*
rm -f rtg_trace.txt.*

echo "-- no trace at all"
"$B/rtg-trace" -c -- true 2>&1; echo "status $?"
echo "-- the lists are removed: $(ls tmpdir | grep -c "^rtg-trace-list\.") left"
