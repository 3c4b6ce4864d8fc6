# Hosts on one time axis.  Four "hosts" on this machine, each a UTS
# namespace (its own hostname) and a time namespace whose CLOCK_BOOTTIME is
# -1000 s .. +5000 s off this machine's, run two traced processes each that
# dispatch a kernel right after one CLOCK_REALTIME deadline.  rtg-convert
# moves every host onto the first by name (node-a) through the clock pairs
# of the traces: the kernels land where they really ran on the wall clock
# (each program prints one instant on both clocks just before it submits,
# so a process the machine ran late counts as late), within 2 ms; the two
# processes of a host keep their distance exactly; --no-align leaves every
# time as the trace has it, the same bytes as traces without clock pairs.
unshare --uts --time true 2>/dev/null || { echo "SKIP: no UTS and time namespaces here (unshare --uts --time)"; exit 77; }
. "$TOP/tests/simgpu/env.sh"
# (a boot time cannot go below 0: on a machine up for less than 1100 s,
# every offset is 1000 s larger, which changes none of their differences)
base=0
[ "$(cut -d. -f1 /proc/uptime)" -gt 1100 ] || base=1000
deadline=$(( $(date +%s%N) + 3000000000 ))
for h in node-c:2500 node-a:-1000 node-d:5000 node-b:0; do
  unshare --uts --time --boottime $(( ${h#*:} + base )) sh -c "hostname ${h%:*}
    for r in 1 2; do HSA_TOOLS_LIB='$B/rtg_tracer.so' '$B/progs/tp_deadline' $deadline > out.${h%:*}.\$r & done
    wait" &
done
wait
echo "traces: $(ls rtg_trace.txt.* | wc -l), hosts: $(head -qn1 rtg_trace.txt.* | sed 's/.* host:\([^ ]*\).*/\1/' | sort -u | tr '\n' ' ')"
grep -q ' realtime_err:[0-9]' rtg_trace.txt.* && echo "headers have realtime_err"
n=$(grep -l '^RTG: .* summary .* boot_ns:[0-9]* realtime_ns:[0-9]* realtime_err:[0-9]*$' rtg_trace.txt.* | wc -l)
echo "summaries with an exit pair: $n"

"$B/rtg-convert" -v -o a.json rtg_trace.txt.* > v.txt
echo "exit $?"
"$B/rtg-convert" -q --analyze=an.json rtg_trace.txt.* > an.txt
echo "analyze exit $?, its text names $(grep -c '^  host node-.: offset' an.txt) hosts"
# -v: each host's offset (rounded to the ms: the time namespaces' own; the
# pairs' error is nanoseconds to microseconds) and its uncertainty
grep -A4 '^hosts on one time axis' v.txt |
  awk 'match($0, /offset [-+][0-9]+\.[0-9]+ s/) {
    v = substr($0, RSTART + 7, RLENGTH - 9)
    $0 = substr($0, 1, RSTART - 1) "offset " sprintf("%+.3f", v) " s" substr($0, RSTART + RLENGTH) }
    { print }' |
  sed -E 's/uncertainty [0-9]+ ns/uncertainty N ns/; s/drift [-+]0\.[0-9]{3} ppm/drift ~0 ppm/'
"$B/rtg-convert" -q --csv csv --sqlite k.rpd rtg_trace.txt.*
echo "csv, sqlite exit $?"
"$B/rtg-convert" -q -o n.json --no-align rtg_trace.txt.*
echo "no-align exit $?"
mkdir bare
for f in rtg_trace.txt.*; do sed 's/ realtime_ns:[0-9]*//' "$f" > "bare/$f"; done
(cd bare && "$B/rtg-convert" -q -o ../b.json rtg_trace.txt.*)
cmp n.json b.json && echo "--no-align: the same bytes as traces without clock pairs"
(cd bare && "$B/rtg-convert" -q -v -o /dev/null rtg_trace.txt.* | grep '^hosts')
# node-b's traces without pairs (written before they were recorded): it stays
mkdir mixed
for f in rtg_trace.txt.*; do
  if head -n1 "$f" | grep -q ' host:node-b '; then cp "bare/$f" mixed/; else cp "$f" mixed/; fi
done
(cd mixed && "$B/rtg-convert" -q -v -o /dev/null rtg_trace.txt.*) | grep -E '^  host node-[ab]' |
  sed -E 's/uncertainty [0-9]+ ns, drift [-+]0\.[0-9]{3} ppm/.../'


python3 - <<'PY'
import glob, json, re, sys
raw, host = {}, {}   # pid -> the kernel's start in its trace (its host's boot ns); pid -> host
for f in glob.glob("rtg_trace.txt.*"):
    for line in open(f):
        m = re.match(r"RTG: pid:(\d+) .* trace .*host:(\S+)", line)
        if m: host[int(m[1])] = m[2]
        m = re.match(r"HSA: pid:(\d+) .* dispatch .* start:(\d+) ", line)
        if m: raw[int(m[1])] = int(m[2])
probe = {}           # pid -> (boot, wall) just before its submission
for f in glob.glob("out.*"):
    for line in open(f):
        p, b, w = map(int, re.findall(r"\d+", line))
        probe[p] = (b, w)
def starts(path):    # pid -> the kernel's ts in the JSON, ns
    d = json.load(open(path))
    ev = d["traceEvents"] if isinstance(d, dict) else d
    names = {(e["pid"], e["tid"]): int(e["args"]["name"].split()[0]) for e in ev
             if e.get("ph") == "M" and e["name"] == "thread_name" and "GPU" in e["args"]["name"]}
    return {names[(e["pid"], e["tid"])]: round(e["ts"] * 1000) for e in ev
            if e.get("ph") == "X" and e.get("cat") == "kernel"}
al, na = starts("a.json"), starts("n.json")
print("kernels:", len(al), "of", len(raw), "; probes:", len(probe))
# where each kernel really started on the wall clock
wall = {p: probe[p][1] + raw[p] - probe[p][0] for p in raw}
err = [al[p] - wall[p] for p in raw]
print("aligned starts agree with the wall clock within 2 ms:", max(err) - min(err) <= 2000000)
print("aligned - wall clock spread %d ns; aligned starts spread %d ns" %
      (max(err) - min(err), max(al.values()) - min(al.values())), file=sys.stderr)
print("aligned starts within 1 s of each other:", max(al.values()) - min(al.values()) < 10**9)
print("--no-align starts as traced:", na == raw)
print("--no-align starts over 900 s apart:", max(na.values()) - min(na.values()) > 900 * 10**9)
import csv, sqlite3
cs = {}
for f in glob.glob("csv/*/*_kernel_trace.csv"):
    for row in csv.DictReader(open(f)):
        cs[int(f.split("/")[-1].split("_")[0])] = int(row["Start_Timestamp"])
db = sorted(r[0] for r in sqlite3.connect("k.rpd").execute("select start from rocpd_op"))
print("CSV and SQLite starts aligned as the JSON's:", cs == al and db == sorted(al.values()))
same = True
for h in set(host.values()):
    ps = [p for p in raw if host[p] == h]
    same &= len(ps) == 2 and al[ps[0]] - al[ps[1]] == raw[ps[0]] - raw[ps[1]]
print("processes of one host keep their distance exactly:", same)
print("reference node-a not moved:", all(al[p] == raw[p] for p in raw if host[p] == "node-a"))
an = json.load(open("an.json"))
for h in an["hosts"]:
    print(h["host"], "offset %.3f s" % (h["offset_ns"] / 1e9), h["source"],
          "uncertainty < 1 ms:", 0 <= h["uncertainty_ns"] < 10**6,
          "drift ~0:", abs(h["drift_ppm"]) < 1, "reference:", h["reference"])
PY
