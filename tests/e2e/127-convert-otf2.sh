# --otf2: the archive of the three real recordings and small.txt, read back
# with otf2-print (Debian's otf2-tools):
# - per region, as many ENTERs and LEAVEs as the JSON of the same input has
#   slices (and ROCTx marks) of that name (copies: of that kind), with -k too;
# - per location, timestamps in order and ENTER/LEAVE properly nested, and
#   the event count of the LOCATION definition right;
# - the definitions: clock properties (1e9 ticks per second, the first
#   timestamp as offset, the span as length), the system tree, location
#   groups and locations;
# - the same events whatever the order of the input (a reversed file) and
#   whether the sort spills to a temporary file (RTG_CONVERT_OTF2_RUN=3);
# - an archive already in DIR is replaced;
# - slices that overlap without nesting (on a queue, on a thread) go to a
#   second location of that queue or thread.
R="$TOP/tests/data/convert/real"
IN="$R/hsa_vadd.txt $R/sg_hip.txt $R/hip_streams_2gpu.txt $TOP/tests/data/convert/small.txt"
# shellcheck disable=SC2086
"$B/rtg-convert" -q -o out.json --otf2 o2 $IN
echo "exit $?"
# shellcheck disable=SC2086
"$B/rtg-convert" -q -k -o k.json --otf2 k2 $IN
echo "exit $?"
# shellcheck disable=SC2086
RTG_CONVERT_OTF2_RUN=3 "$B/rtg-convert" -q --otf2 spill $IN
echo "exit $?"
tac "$R/hip_streams_2gpu.txt" >reversed.txt
"$B/rtg-convert" -q --otf2 fwd "$R/hip_streams_2gpu.txt" && "$B/rtg-convert" -q --otf2 rev reversed.txt
echo "exit $?"
# an archive already there is replaced (as -o replaces a file)
"$B/rtg-convert" -q --otf2 again "$R/hsa_vadd.txt" && "$B/rtg-convert" -q --otf2 again "$R/sg_hip.txt"
echo "replaced: exit $?, $(otf2-print -G again/trace.otf2 | grep -c '^LOCATION ') locations, $(ls again/trace | wc -l) files"
cat >overlap.txt <<'EOF'
RTG: pid:7 tid:7 trace format:1 host:h clock:boottime
HSA: pid:7 tid:9 dispatch queue:0 agent:1 signal:1 name:'a' start:1000 stop:3000 id:1
HSA: pid:7 tid:9 dispatch queue:0 agent:1 signal:2 name:'b' start:2000 stop:4000 id:2
HSA: pid:7 tid:9 dispatch queue:0 agent:1 signal:3 name:'c' start:2500 stop:2600 id:3
HIP: pid:7 tid:7 hipA ret=0 @100 +100 corr:1
HIP: pid:7 tid:7 hipB ret=0 @150 +100 corr:2
HIP: pid:7 tid:7 hipC ret=0 @120 +10 corr:3
EOF
"$B/rtg-convert" -q -o overlap.json --otf2 ov overlap.txt
echo "exit $?"
# 70 kernels overlapping on one queue: 64 lanes, then slices are cut short
awk -v q="'" 'BEGIN { print "RTG: pid:8 tid:8 trace format:1 host:h clock:boottime"
  for (i = 0; i < 70; i++)
    printf "HSA: pid:8 tid:9 dispatch queue:0 agent:1 signal:1 name:%sk%s start:%d stop:%d id:%d\n", q, q, 1000 + i, 5000 + i, i }' >many.txt
"$B/rtg-convert" -o many.json --otf2 many many.txt 2>&1
echo "exit $?, $(otf2-print -G many/trace.otf2 | grep -c '^LOCATION ') locations, $(otf2-print many/trace.otf2 | grep -c '^ENTER') ENTERs"
for a in o2 k2 spill fwd rev ov many; do otf2-print "$a/trace.otf2" >"$a.events" || echo "otf2-print $a failed"; done
otf2-print -G o2/trace.otf2 >o2.defs
otf2-print -G ov/trace.otf2 >ov.defs
cmp -s o2.events spill.events && echo "spilled to a temporary file: the same events" || echo "spill: DIFFERENT"
cmp -s fwd.events rev.events && echo "reversed input: the same events" || echo "reversed: DIFFERENT"
python3 - <<'EOF'
import json, re

def otf2_events(fn):
    per_region, per_loc, bad = {}, {}, 0
    stacks, last = {}, {}
    for line in open(fn):
        m = re.match(r'(ENTER|LEAVE)\s+(\d+)\s+(\d+)\s+Region: "(.*)" <\d+>$', line.rstrip("\n"))
        if not m:
            continue
        kind, loc, ts, name = m.group(1), int(m.group(2)), int(m.group(3)), m.group(4)
        e, l = per_region.get(name, (0, 0))
        per_region[name] = (e + 1, l) if kind == "ENTER" else (e, l + 1)
        per_loc[loc] = per_loc.get(loc, 0) + 1
        if ts < last.get(loc, 0):
            bad += 1
        last[loc] = ts
        st = stacks.setdefault(loc, [])
        if kind == "ENTER":
            st.append(name)
        elif not st or st.pop() != name:
            bad += 1
    bad += sum(len(s) for s in stacks.values())
    return per_region, per_loc, bad

def json_slices(fn, rename):
    evs = json.load(open(fn))["traceEvents"]
    per, first, last = {}, None, 0
    for e in evs:
        # slices, and ROCTx marks (instants: a zero-length region in OTF2)
        if e.get("ph") != "X" and not (e.get("ph") == "i" and e.get("cat") == "roctx"):
            continue
        name = e["args"]["kind"] if e["cat"] == "copy" else e["name"]
        per[name] = per.get(name, 0) + 1
        s, t = round(e["ts"] * 1000), round((e["ts"] + e.get("dur", 0)) * 1000)
        first = s if first is None else min(first, s)
        last = max(last, t)
    return per, first, last

def defs(fn):
    locs = {}
    for line in open(fn):
        m = re.match(r"LOCATION\s+(\d+)\s+Name: \"(.*)\" <\d+>, Type: (\w+), # Events: (\d+), Group: \"(.*)\" <\d+>", line)
        if m:
            locs[int(m.group(1))] = (m.group(2), m.group(3), int(m.group(4)), m.group(5))
    return locs

for tag, ev, js in [("default", "o2.events", "out.json"), ("-k", "k2.events", "k.json"),
                    ("overlap", "ov.events", "overlap.json"), ("70 overl.", "many.events", "many.json")]:
    per_region, per_loc, bad = otf2_events(ev)
    per_json, first, last = json_slices(js, tag == "-k")
    same = {k: (v, v) for k, v in per_json.items()} == per_region
    print("%-8s %3d regions, %4d enter/leave pairs; per region as the JSON's slices: %s; "
          "order or nesting errors: %d" % (tag, len(per_region), sum(e for e, _ in per_region.values()),
                                          "yes" if same else "NO", bad))
    if tag == "default":
        d = open("o2.defs").read()
        m = re.search(r"CLOCK_PROPERTIES\s+Ticks per Seconds: (\d+), Global Offset: (\d+), Length: (\d+)", d)
        print("clock: %s ticks/s, offset = first timestamp: %s, length = span: %s" %
              (m.group(1), int(m.group(2)) == first, int(m.group(3)) == last - first))
        locs = defs("o2.defs")
        print("event counts of the LOCATION definitions right:",
              all(locs[l][2] == n for l, n in per_loc.items()) and len(locs) == len(per_loc))
        for line in d.splitlines():
            if re.match(r"(SYSTEM_TREE_NODE|LOCATION_GROUP)\s", line):
                print(re.sub(r" <\d+>", "", re.sub(r"\s+", " ", line)))
        for l, (name, typ, n, group) in sorted(locs.items()):
            print("LOCATION %2d %-60s %-18s %4d events, in %s" % (l, name, typ, n, group))
    if tag == "overlap":
        for l, (name, typ, n, group) in sorted(defs("ov.defs").items()):
            print("LOCATION %2d %-30s %-18s %4d events" % (l, name, typ, n))
EOF
