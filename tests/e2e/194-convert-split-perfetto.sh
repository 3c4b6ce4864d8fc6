# --split-size on a Perfetto trace: a generated trace (two processes,
# arrows, gap slices) cut into parts of at most 200 KiB.  Each part is
# read as Perfetto's importer reads it (tests/perfetto/check_pftrace.py:
# every sequence restarts with its state cleared, its clock and its
# interned strings before use) and holds every track; slices are whole in
# each part (an end with its begin); the union of the parts' events
# (resolved times, tracks, names, arguments) is the unsplit trace's, each
# once; the index describes the parts.  The same with -p --zero on the
# records reversed, where many packets give their time whole.  Then a size
# too small for the tracks (exit 1, nothing written).
cc -O1 ${SAN:+-fsanitize=$SAN} -I"$TOP/include" -o gen "$TOP/scripts/bench-convert-gen.c" "$B/librtgcommon.a"
./gen 3000000 7 2 > t.txt
"$B/rtg-convert" -q -f -g -k -o whole.pftrace t.txt
"$B/rtg-convert" -f -g -k --split-size 200K -o s.pftrace t.txt 2> msg.txt
echo "exit $?"
ls s.* | sed 's/[0-9][0-9][0-9]/NNN/' | uniq -c | sed 's/^ *//'
sed 's/: [0-9]* events, [0-9.]* \.\. [0-9.]* us, [0-9]* bytes$/: N events, FROM .. TO us, N bytes/; s/[0-9][0-9][0-9]\.pftrace/NNN.pftrace/; s/: [0-9]* parts/: N parts/' msg.txt | uniq -c | sed 's/^ *//'
cat > check.py <<'PY'
import json, os, sys, subprocess, collections
top = sys.argv[1]
sys.path.insert(0, top + "/tests/perfetto")
from check_pftrace import read_trace, one

def events(path):
    with open(path, "rb") as i, open(path + ".dec", "w") as o:
        subprocess.run(["protoc", "--decode=rtgpf.Trace", "-I" + top + "/tests/perfetto",
                        top + "/tests/perfetto/pftrace.proto"], stdin=i, stdout=o, check=True)
    _, tracks, _, evs = read_trace(path + ".dec")  # fails on a sequence, clock or iid wrong
    keys = [json.dumps([ts, uuid, {k: v for k, v in te.items()
                                   if k not in ("name_iid", "category_iids", "debug_annotations")}],
                       sort_keys=True) for ts, order, uuid, te in evs]
    order = sorted((ts, order, uuid, one(te, "type", 0)) for ts, order, uuid, te in evs)
    return keys, order, tracks

whole, _, wtracks = events(sys.argv[2])
ix = json.load(open(sys.argv[3]))
print("index of", ix["split_of"], "size", ix["split_size"], "parts", len(ix["parts"]) > 2)
print("index lists every part in order:",
      [p["file"] for p in ix["parts"]] == sorted(f for f in os.listdir(".") if f.startswith("s.0")))
got, bad, prev = collections.Counter(), [], None
lines = open("msg.txt").read().splitlines()
for p in ix["parts"]:
    n = os.path.getsize(p["file"])
    keys, order, tracks = events(p["file"])
    if n > ix["split_size"] or n != p["bytes"]: bad.append(p["file"] + ": bytes")
    if tracks.keys() != wtracks.keys(): bad.append(p["file"] + ": tracks")
    if len(keys) != p["events"]: bad.append(p["file"] + ": events")
    got.update(keys)
    depth = collections.Counter()
    for ts, _, uuid, ty in order:
        depth[uuid] += {1: 1, 2: -1}.get(ty, 0)
        if depth[uuid] < 0: bad.append(p["file"] + ": an end without its begin")
    if any(depth.values()): bad.append(p["file"] + ": a begin without its end")
    begins = [ts for ts, _, _, ty in order if ty != 2]
    if abs(min(begins) / 1e3 - p["from_us"]) > 5e-4 or abs(max(begins) / 1e3 - p["last_start_us"]) > 5e-4 \
       or abs(order[-1][0] / 1e3 - p["to_us"]) > 5e-4:
        bad.append(p["file"] + ": index times")
    if prev is not None and not p["from_us"] >= prev: bad.append(p["file"] + ": windows overlap")
    prev = p["last_start_us"]
    if not any(l.startswith("rtg-convert: %s: %d events, " % (p["file"], p["events"])) for l in lines):
        bad.append(p["file"] + ": no message")
print("parts below the size, read by the importer's rules, every track, slices whole, match the index:",
      not bad, bad[:5])
want = collections.Counter(whole)
print("events: unsplit %d, parts %d, lost %d, doubled %d" % (sum(want.values()), sum(got.values()),
      sum((want - got).values()), sum((got - want).values())))
PY
python3 check.py "$TOP" whole.pftrace s.index.json
echo "== -p --zero, the records reversed (many times given whole, on CLOCK_BOOTTIME)"
tac t.txt > r.txt
mkdir rev && cd rev
"$B/rtg-convert" -q -f -p --zero -o whole.pftrace ../r.txt
"$B/rtg-convert" -f -p --zero --split-size 150K -o s.pftrace ../r.txt 2> msg.txt
echo "exit $?"
python3 ../check.py "$TOP" whole.pftrace s.index.json
cd ..
echo "== too small"
mkdir small
"$B/rtg-convert" -q -f --split-size 4K -o small/s.pftrace t.txt 2>&1; echo "exit $?"
ls -A small | wc -l
echo "== a trace without events: one part, valid"
head -n 2 t.txt > none.txt
"$B/rtg-convert" -q --split-size 100K -o none.pftrace none.txt; echo "exit $?"
protoc --decode=rtgpf.Trace -I"$TOP/tests/perfetto" "$TOP/tests/perfetto/pftrace.proto" <none.000.pftrace | grep -c '^packet {$'
python3 -c 'import json; print(json.load(open("none.index.json"))["parts"][0]["events"])'
