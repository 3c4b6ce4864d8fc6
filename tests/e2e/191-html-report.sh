# rtg-convert --html: the report of a fresh trace (examples/hip_streams on
# the simulated GPU) in headless Chromium through playwright-core (installed
# by the script when missing): no console error, no network request; the
# verdict, each cause's time and percentages equal --analyze's; the top
# kernel's time equals kernel_stats.csv; finding the kernel zooms the
# timeline to it and shows its name and GPU start/stop as the trace has
# them, on the info line and in the canvas's hover. Then: the first
# instance of the costliest rule that fired scrolls the timeline to it; a
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

echo "== an output that cannot be written"
echo old >out.json
"$B/rtg-convert" -q -o out.json --html "$TMP/no/such/dir/r.html" t/rtg_trace.txt.* 2>err.txt
echo "convert: exit $?"
sed "s|$TMP|TMP|g" err.txt
echo "out.json: $(cat out.json)"
