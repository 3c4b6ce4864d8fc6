# A trace whose first record (another thread's dispatch on the second GPU)
# comes between the header and the agent lines, as traces written before
# the tracer drained the agent records at load could be: the dispatch still
# lands on GPU1, in every output (here: --analyze's GPUs, the JSON's GPU
# tracks and the --stats kernel rows by device).
t="$TOP/tests/data/convert/agents-late.txt"
"$B/rtg-convert" -q --analyze=an.json -o out.json "$t" >/dev/null
echo "exit $?"
python3 - <<'PY'
import json
for g in json.load(open("an.json"))["gpus"]:
    print(g["gpu"], "kernels", sum(q["kernels"] for q in g["queues"]), "busy_us", g["busy_us"])
ev = json.load(open("out.json"))["traceEvents"]
names = {(e["pid"], e.get("tid")): e["args"]["name"] for e in ev if e.get("ph") == "M" and e.get("name") == "thread_name"}
per = {}
for e in ev:
    if e.get("ph") == "X" and e.get("name") == "unknown":
        per.setdefault(names.get((e["pid"], e.get("tid")), "?"), []).append(e["ts"])
for k in sorted(per): print("json track", k, len(per[k]))
PY
