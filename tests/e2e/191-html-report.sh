# rtg-convert --html: the report of a fresh trace (examples/hip_streams on
# the simulated GPU) in headless Chromium through playwright-core (installed
# by the script when missing): no console error, no network request; the
# verdict, each cause's time and percentages equal --analyze's; the top
# kernel's time equals kernel_stats.csv; finding the kernel zooms the
# timeline to it and shows its name and GPU start/stop as the trace has
# them, on the info line and in the canvas's hover. Then: the first
# instance of the costliest rule that fired scrolls the timeline to it; a
# report of 2,400 rows (more than a canvas can be tall) scrolls over all of
# them and finds, reveals and hovers the last one's event; a
# report with fewer events embedded
# says so; an output that cannot be written fails naming it and leaves the
# other outputs as they were.
. "$TOP/tests/simgpu/env.sh"
mkdir t && (cd t && RTG_HSA_HOST_DISPATCH=1 HSA_TOOLS_LIB="$B/rtg_tracer.so" \
  "$B/examples/hip_streams" -s 2 -n 3 >/dev/null 2>&1)
"$B/rtg-convert" -q --html report.html --analyze=an.json --stats=st t/rtg_trace.txt.* >an.txt
echo "convert: exit $?"
expect() { # expect OUT [rules|partial]
  python3 - "$@" <<'PY'
import csv, json, re, sys, glob
out, extra = sys.argv[1], sys.argv[2:]
lines = open("an.txt").read().split("\n")
verdicts = lines[:lines.index("")]
rows = list(csv.DictReader(open("st/kernel_stats.csv")))
disp = []
for f in glob.glob("t/rtg_trace.txt.*"):
    for ln in open(f):
        m = re.search(r" dispatch .*name:'(.*?)' start:(\d+) stop:(\d+)", ln)
        if m: disp.append([m.group(1), m.group(2), m.group(3)])
e = {"analysis": json.load(open("an.json")), "verdicts": verdicts,
     "top_kernel": [rows[0]["Name"], int(rows[0]["TotalDurationNs"])], "dispatches": disp}
if "rules" in extra:
    e["rules"] = True
    # the first link of the rules section: the costliest fired rule's first instance
    fired = [r for r in e["analysis"]["rules"] if r["fired"] and r["instances"]]
    fired.sort(key=lambda r: -r["cost_us"])
    e["rule_instance_us"] = fired[0]["instances"][0]["start_ns"] / 1e3
if "partial" in extra: e["partial"] = True
json.dump(e, open(out, "w"))
PY
}
expect expect.json
"$TOP/scripts/browser-test-html.sh" check report.html expect.json

echo "== a rule instance"
expect expect-rules.json rules
"$TOP/scripts/browser-test-html.sh" check report.html expect-rules.json | grep -E 'rule|FAIL'

echo "== 40 events embedded of all"
RTG_HTML_MAX_EVENTS=40 "$B/rtg-convert" -q --html partial.html t/rtg_trace.txt.* >/dev/null
echo "convert: exit $?"
expect expect-partial.json partial
"$TOP/scripts/browser-test-html.sh" check partial.html expect-partial.json | grep -E 'loaded|verdict|embedded|FAIL'

echo "== 800 processes: more rows than a canvas can be tall"
python3 - <<'PY'
with open("many.txt", "w") as f:
    for p in range(1000, 1800):
        t = 1000000 + (p - 1000) * 1000
        f.write("RTG: pid:%d tid:%d trace format:1 host:n clock:CLOCK_BOOTTIME ppid:1 boot_ns:%d realtime_ns:1555950992000000000 exe:'/r'\n" % (p, p, t))
        f.write("RTG: pid:%d tid:%d agent index:1 type:gpu name:'gfx90a'\n" % (p, p))
        f.write("HIP: pid:%d tid:%d hipLaunchKernel(f=0x2) [k%d(float*)] ret=0 @%d +2000 corr:7\n" % (p, p, p, t + 100))
        f.write("HSA: pid:%d tid:%d dispatch queue:0 agent:1 signal:5 name:'k%d' start:%d stop:%d id:1 corr:7\n" % (p, p + 1, p, t + 3000, t + 9000))
PY
"$B/rtg-convert" -q --html many.html many.txt >/dev/null
echo "convert: exit $?"
"$TOP/scripts/browser-test-html.sh" rows many.html k1799

echo "== an output that cannot be written"
echo old >out.json
"$B/rtg-convert" -q -o out.json --html "$TMP/no/such/dir/r.html" t/rtg_trace.txt.* 2>err.txt
echo "convert: exit $?"
sed "s|$TMP|TMP|g" err.txt
echo "out.json: $(cat out.json)"
