# Hosts on one time axis by matched MPI collectives.  4 "hosts" (UTS and
# time namespaces, CLOCK_BOOTTIME -1000 s .. +5000 s off this machine's, as
# e2e 136) x 2 ranks of an Open MPI program (tpmpi_barrier: rounds of
# MPI_Barrier, a kernel right after it, MPI_Allreduce).  Each host's
# CLOCK_REALTIME is then made wrong by up to 5 ms (the test's stand-in for
# NTP error: the pairs' realtime_ns in the traces are moved by the host's
# skew).  The true offset of each host is its namespace's.  By the pairs
# alone every host is off by its skew; with the collectives' bounds each
# is within 50 us and within the uncertainty it reports, and so are the
# kernels' starts.
. "$TOP/tests/e2e/mpi-common.sh"
unshare --uts --time true 2>/dev/null || { echo "SKIP: no UTS and time namespaces here (unshare --uts --time)"; exit 77; }
base=0
[ "$(cut -d. -f1 /proc/uptime)" -gt 1100 ] || base=1000
cat > host.sh <<HOST
#!/bin/sh
# one rank on its host: node-a..d by rank / 2
r=\${OMPI_COMM_WORLD_RANK:?}
set -- node-a:$((base - 1000)) node-b:$((base + 0)) node-c:$((base + 2500)) node-d:$((base + 5000)) "\$@"
i=\$((r / 2)); shift \$i; h=\$1; shift \$((4 - i))
exec unshare --uts --time --boottime \${h#*:} sh -c "hostname \${h%:*}; exec \"\\\$@\"" sh "\$@"
HOST
chmod +x host.sh
mpi_run 8 ./host.sh "$B/progs/tpmpi_barrier" 60 > out.txt
echo "mpirun exit $?, ranks that printed: $(grep -c '^rank' out.txt)"
echo "traces: $(ls rtg_trace.txt.* | wc -l), hosts: $(head -qn1 rtg_trace.txt.* | sed 's/.* host:\([^ ]*\).*/\1/' | sort -u | tr '\n' ' ')"
# the skews: what NTP might leave, up to 5 ms either way
mkdir skewed realtime
python3 - <<'PY'
import glob, re
skew = {"node-a": 2000000, "node-b": -5000000, "node-c": 4500000, "node-d": -1300000}
for f in glob.glob("rtg_trace.txt.*"):
    t = open(f).read()
    h = re.search(r" host:(\S+)", t).group(1)
    t = re.sub(r"( realtime_ns:)(\d+)", lambda m: m.group(1) + str(int(m.group(2)) + skew[h]), t)
    open("skewed/" + f, "w").write(t)
    # the same traces without MPI calls: the pairs alone
    open("realtime/" + f, "w").write(re.sub(r"(?m)^MPI: .*\n", "", re.sub(r" mpi_calls:\d+", "", t)))
PY
cd skewed
"$B/rtg-convert" -v -o ../c.json --sqlite ../c.rpd rtg_trace.txt.* > ../v.txt
echo "convert exit $?"
"$B/rtg-convert" -q --analyze=../an.json rtg_trace.txt.* > ../an.txt
echo "analyze exit $?"
cd ../realtime && "$B/rtg-convert" -q -o ../r.json rtg_trace.txt.*
echo "realtime-only exit $?"
cd ..
grep '^hosts on one' v.txt
grep '^  host node-' v.txt | sed -E 's/offset [-+][0-9.]+ s, uncertainty [0-9]+ ns/offset X, uncertainty U/; s/\([0-9]+ instances\)/(N instances)/'
echo "analyze text names the sources: $(grep -c 'source collectives' an.txt)"
python3 - <<'PY'
import glob, json, re, sqlite3, sys
base = 0 if int(open("/proc/uptime").read().split(".")[0]) > 1100 else 1000
ns = {"node-a": -1000, "node-b": 0, "node-c": 2500, "node-d": 5000}
truth = {h: (ns["node-a"] - o) * 10**9 for h, o in ns.items()}  # reference minus host
an = json.load(open("an.json"))
ok50 = okunc = True
for h in an["hosts"]:
    err = h["offset_ns"] - truth[h["host"]]
    ok50 &= abs(err) <= 50000
    okunc &= abs(err) <= h["uncertainty_ns"] or h["reference"]
    print(h["host"], h["source"], "error %+d ns, uncertainty %d ns" % (err, h["uncertainty_ns"]),
          file=sys.stderr)
print("offsets within 50 us of the truth:", ok50)
print("the uncertainty covers the true error:", okunc)
raw, host = {}, {}
for f in glob.glob("rtg_trace.txt.*"):
    for line in open(f):
        m = re.match(r"RTG: pid:(\d+) .* trace .*host:(\S+)", line)
        if m: host[int(m[1])] = m[2]
        m = re.match(r"HSA: pid:(\d+) .* dispatch .* start:(\d+) ", line)
        if m: raw.setdefault(int(m[1]), []).append(int(m[2]))
def starts(path):
    d = json.load(open(path))
    ev = d["traceEvents"] if isinstance(d, dict) else d
    names = {(e["pid"], e["tid"]): int(e["args"]["name"].split()[0]) for e in ev
             if e.get("ph") == "M" and e["name"] == "thread_name" and "GPU" in e["args"]["name"]}
    out = {}
    for e in ev:
        if e.get("ph") == "X" and e.get("cat") == "kernel":
            out.setdefault(names[(e["pid"], e["tid"])], []).append(round(e["ts"] * 1000))
    return {p: sorted(v) for p, v in out.items()}
def worst(path):
    al = starts(path)
    return max(abs(a - (r + truth[host[p]])) for p in raw for a, r in zip(al[p], sorted(raw[p])))
wc, wr = worst("c.json"), worst("r.json")
print("kernels:", sum(map(len, raw.values())))
print("kernel starts with collectives within 50 us of the truth:", wc <= 50000)
# (7 ms: the widest pair of injected skews, +2 and -5 ms; plus 100 us for
# the clock pairs' own error, a few ns on a quiet host, more on a busy one)
print("kernel starts by the pairs alone off by the skews (over 1 ms, at most 7 ms and the pairs' error):",
      1000000 < wr <= 7100000)
print("worst kernel start error: collectives %d ns, pairs alone %d ns" % (wc, wr), file=sys.stderr)
db = sqlite3.connect("c.rpd")
n = db.execute("select count(*) from rocpd_api a join rocpd_string s on a.domain_id = s.id "
               "where s.string = 'mpi'").fetchone()[0]
js = sum(1 for e in json.load(open("c.json"))["traceEvents"] if e.get("cat") == "mpi")
mp = sum(1 for f in glob.glob("rtg_trace.txt.*") for l in open(f) if l.startswith("MPI: "))
print("MPI calls: trace = JSON = SQLite:", mp == js == n, mp > 0)
PY
