# A generated trace of two processes (HIP launches, copies, HSA calls, ROCTx
# ranges and markers) with every option that shapes the timeline, and the
# same trace reversed (records in any order): checked against the JSON; the
# counter tracks (ops in flight, bytes copied) end at 0 and at the bytes of
# the copies.
. "$TOP/tests/e2e/12-perfetto.inc"
cc -O1 ${SAN:+-fsanitize=$SAN} -I"$TOP/include" -o gen "$TOP/scripts/bench-convert-gen.c" "$B/librtgcommon.a"
./gen 2000000 3 2 > t.txt
echo "== -f -g -k"
pf_check -f -g -k t.txt
echo "== -f -p --zero, reversed"
tac t.txt > r.txt
pf_check -f -p --zero r.txt
echo "== bytes copied, last value per counter track, and the JSON's sum"
python3 - pf.dec pf.json "$TOP/tests/perfetto" <<'PY'
import json, sys
sys.path.insert(0, sys.argv[3])
from check_pftrace import one, read_trace
# times and tracks resolved as the importer does (each sequence's clock and track)
_, tracks, _, events = read_trace(sys.argv[1])
uuids, last = {}, {}
for u, t in tracks.items():
    if "bytes copied" in (one(t, "name") or ""): uuids[u] = one(t, "name")
for ts, _, track, te in events:
    if "counter_value" in te and track in uuids:
        v = one(te, "counter_value")
        if track not in last or ts >= last[track][0]: last[track] = (ts, v)
total = sum(e["args"].get("bytes", 0) for e in json.load(open(sys.argv[2]))["traceEvents"] if e.get("cat") == "copy")
print("counter tracks:", len(uuids), "final bytes:", sum(v for _, v in last.values()), "JSON copies:", total)
PY
echo "== HSA calls of 15000 distinct argument lists, each met twice (interned the second time; the call and string caches evict)"
./gen 4000000 6 1 hsa | awk '/^HSA: .* @/ { sub(/\(.*\) ret=/, "(n=" NR % 15000 ", queue=0x7f316ce80280) ret=") } { print }' > d.txt
pf_check -f d.txt
echo "== events held in memory, or spilled to a temporary file (all, or after 3 MB): the same bytes"
./gen 24000000 5 1 hsa > h.txt
"$B/rtg-convert" -q -f -o mem.pftrace h.txt
RTG_CONVERT_PF_MEM=0 "$B/rtg-convert" -q -f -o all.pftrace h.txt
RTG_CONVERT_PF_MEM=3000000 "$B/rtg-convert" -q -f -o part.pftrace h.txt
RTG_CONVERT_PF_MEM=3000000 "$B/rtg-convert" -q -f --format perfetto -o - h.txt > pipe.pftrace
[ "$(wc -c < mem.pftrace)" -gt 6000000 ] && echo "trace over 6 MB" || echo "trace too small to spill"
# (a pipe: without the padding that fills the room before the events in a file)
python3 "$TOP/tests/perfetto/strip_padding.py" mem.pftrace > mem.stripped 2> pads.txt && cat pads.txt
for f in all part; do cmp -s mem.pftrace $f.pftrace && echo "$f: same" || echo "$f: DIFFERENT"; done
cmp -s mem.stripped pipe.pftrace && echo "pipe: same" || echo "pipe: DIFFERENT"
ls -a | grep -c '^\.rtg-pftrace' || true
echo "== a launch whose kernel reads as an earlier call's arguments (the same three strings)"
{
  echo "RTG: pid:1000 tid:1000 trace format:1 host:adv clock:CLOCK_BOOTTIME"
  echo "HIP: pid:1000 tid:1000 hipLaunchKernel(void k) ret=0 @1000000100 +50 corr:1"
  echo "HIP: pid:1000 tid:1000 hipLaunchKernel [void k] ret=0 @1000000200 +50 corr:2"
  echo "HIP: pid:1000 tid:1000 hipLaunchKernel [void k] ret=0 @1000000300 +50 corr:3"
} > same.txt
pf_check -f same.txt
