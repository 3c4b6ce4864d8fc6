# Hosts on one time axis, from traces written here: host a (the reference),
# host b whose offset (realtime - boottime) grew 1 ms during its 10 s run
# (+100 ppm: a linear map, b's last kernel moves 999.9 us more than its
# first), host c whose wall clock was set 2 s forward during its run (a
# step, not a drift: one offset, the median, its uncertainty 2 s), and host
# d of another year (apart: not moved).  Each trace holds a kernel 1 ms
# after its start and one 1 ms before its exit.
W=1795000000000000000
mk() { # FILE HOST PID BOOT0 REAL0 BOOT1 REAL1
  cat > "$1" <<EOT
RTG: pid:$3 tid:$3 trace format:1 host:$2 clock:boottime boot_ns:$4 realtime_ns:$5 realtime_err:10
RTG: pid:$3 tid:$3 agent index:1 type:gpu name:'gfx90a'
HSA: pid:$3 tid:$3 dispatch queue:0 agent:1 signal:0 name:'k' start:$(($4 + 1000000)) stop:$(($4 + 1001000)) id:1
HSA: pid:$3 tid:$3 dispatch queue:0 agent:1 signal:0 name:'k' start:$(($6 - 1000000)) stop:$(($6 - 999000)) id:2
RTG: pid:$3 tid:$3 summary dispatches:2 barriers:0 copies:0 hsa_calls:0 hip_calls:0 lost:0 boot_ns:$6 realtime_ns:$7 realtime_err:10
EOT
}
mk t.1 a 1 100000000000 $W 110000000000 $((W + 10000000000))
mk t.2 b 2 500000000000 $W 510000000000 $((W + 10001000000))
mk t.3 c 3 700000000000 $W 710000000000 $((W + 12000000000))
mk t.4 d 4 900000000000 $((W - 31536000000000000)) 910000000000 $((W - 31535990000000000))
"$B/rtg-convert" -v -o o.json t.1 t.2 t.3 t.4 > v.txt
echo "exit $?"
sed -n '/^hosts/,/^lines/p' v.txt | grep -v '^lines'
"$B/rtg-convert" -q --analyze=a.json t.1 t.2 t.3 t.4 > /dev/null
echo "analyze exit $?"
# the kernels' starts (us) by process
python3 - <<'PY'
import json
ev = json.load(open("o.json"))
ev = ev["traceEvents"] if isinstance(ev, dict) else ev
names = {(e["pid"], e["tid"]): e["args"]["name"].split()[0] for e in ev
         if e.get("ph") == "M" and e["name"] == "thread_name" and "GPU" in e["args"]["name"]}
for e in sorted((e for e in ev if e.get("cat") == "kernel"), key=lambda e: (names[(e["pid"], e["tid"])], e["ts"])):
    print("pid", names[(e["pid"], e["tid"])], "kernel at %.3f us" % e["ts"])
for h in json.load(open("a.json"))["hosts"]:
    print(h)
PY
# --no-align: as written
"$B/rtg-convert" -q --no-align -o n.json t.1 t.2 t.3 t.4
grep -o '"cat":"kernel","ts":[0-9.]*' n.json | sort
