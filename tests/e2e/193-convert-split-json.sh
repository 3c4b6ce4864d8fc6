# --split-size: the JSON of a generated trace (two processes, arrows, gap
# slices) cut into parts of at most 400 KiB: every part is a whole JSON
# trace with every track's names, below the size; the union of the parts'
# events is the unsplit output's, each once, times equal; an arrow's two
# ends in one part; windows of starts in order and apart; the index
# describes each part as it is.  Then the usage errors and a size too small
# for the tracks' names (exit 1, an existing index kept).
cc -O1 ${SAN:+-fsanitize=$SAN} -I"$TOP/include" -o gen "$TOP/scripts/bench-convert-gen.c" "$B/librtgcommon.a"
./gen 3000000 7 2 > t.txt
"$B/rtg-convert" -q -f -g -k -o whole.json t.txt
mkdir out
"$B/rtg-convert" -f -g -k --split-size 400K -o out/s.json t.txt 2> msg.txt
echo "exit $?"
ls out | sed 's/[0-9][0-9][0-9]/NNN/' | uniq -c | sed 's/^ *//'
sed 's/: [0-9]* events, [0-9.]* \.\. [0-9.]* us, [0-9]* bytes$/: N events, FROM .. TO us, N bytes/; s/[0-9][0-9][0-9]\.json/NNN.json/; s/: [0-9]* parts/: N parts/' msg.txt | uniq -c | sed 's/^ *//'
python3 - whole.json out 409600 msg.txt <<'PY'
import json, os, sys, collections
whole, d, size, msg = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
canon = lambda e: json.dumps(e, sort_keys=True)
W = json.load(open(whole))["traceEvents"]
meta = sorted(canon(e) for e in W if e["ph"] == "M")
want = collections.Counter(canon(e) for e in W if e["ph"] != "M")
ix = json.load(open(os.path.join(d, "s.index.json")))
print("index of", ix["split_of"], "size", ix["split_size"], "parts", len(ix["parts"]) > 2)
files = sorted(f for f in os.listdir(d) if f != "s.index.json")
print("index lists every part in order:", [p["file"] for p in ix["parts"]] == files)
got = collections.Counter()
bad = []
prev_last = None
lines = open(msg).read().splitlines()
for k, p in enumerate(ix["parts"]):
    path = os.path.join(d, p["file"])
    n = os.path.getsize(path)
    doc = json.load(open(path))  # every part parses
    ev = doc["traceEvents"]
    if n > size: bad.append("%s: %d bytes" % (p["file"], n))
    if n != p["bytes"]: bad.append("%s: index bytes" % p["file"])
    if sorted(canon(e) for e in ev if e["ph"] == "M") != meta: bad.append("%s: metadata" % p["file"])
    mine = [e for e in ev if e["ph"] != "M"]
    if len(mine) != p["events"]: bad.append("%s: index events" % p["file"])
    got.update(canon(e) for e in mine)
    ids = collections.Counter((e["cat"], e["id"], e["ph"]) for e in mine if e["ph"] in "sf")
    if any(ids[(c, i, "f" if ph == "s" else "s")] != 1 for (c, i, ph) in ids): bad.append("%s: an arrow cut" % p["file"])
    starts = [e["ts"] for e in mine if e["ph"] != "f"]
    ends = [e["ts"] + e.get("dur", 0) for e in mine]
    if abs(min(starts) - p["from_us"]) > 5e-4 or abs(max(starts) - p["last_start_us"]) > 5e-4 or abs(max(ends) - p["to_us"]) > 5e-4:
        bad.append("%s: index times" % p["file"])
    if prev_last is not None and not p["from_us"] >= prev_last: bad.append("%s: windows overlap" % p["file"])
    prev_last = p["last_start_us"]
    if not any(l.startswith("rtg-convert: out/%s: %d events, " % (p["file"], p["events"])) and l.endswith(" %d bytes" % n) for l in lines):
        bad.append("%s: no message" % p["file"])
print("parts below the size, parse, hold every track's names, match the index:", not bad, bad[:5])
print("events: unsplit %d, parts %d, lost %d, doubled %d" % (sum(want.values()), sum(got.values()),
      sum((want - got).values()), sum((got - want).values())))
PY
echo "== usage and errors"
"$B/rtg-convert" -q --split-size 1M -o - t.txt 2>&1 >/dev/null; echo "exit $?"
"$B/rtg-convert" -q --split-size 1M --format perfetto -o - t.txt 2>&1 >/dev/null; echo "exit $?"
"$B/rtg-convert" -q --split-size 10X -o y.json t.txt 2>&1; echo "exit $?"
"$B/rtg-convert" -q --split-size 0 -o y.json t.txt 2>&1; echo "exit $?"
cp out/s.index.json before.json
"$B/rtg-convert" -q -f --split-size 2000 -o out/s.json t.txt 2>&1; echo "exit $?"
cmp before.json out/s.index.json && echo "index kept"
ls -a out | grep -c rtg-
ls y.* x.* 2>/dev/null | wc -l
echo "== a trace without events: one part, valid"
head -n 2 t.txt > none.txt
"$B/rtg-convert" -q --split-size 100K -o none.json none.txt; echo "exit $?"
python3 -c 'import json; print([len(json.load(open(f))["traceEvents"]) for f in ("none.000.json",)], json.load(open("none.index.json"))["parts"][0]["events"])'
