# Hosts on one time axis across parts.  Three nodes each wrote their trace
# under the same node-local path (rtg_trace.txt.100, pid 100 on every
# node), their boot clocks 1000 s, 4000 s and 9000 s apart, their wall
# clocks in agreement; node c's process has no summary (killed).  Each
# node packs its own file (--part, run in its directory); --merge places
# the three on node a's clock exactly as converting the three files at
# once does: -v's host lines, --analyze's "hosts", the kernels' times, and
# --no-align.  Messages name a part's trace PART:PATH.  The calls' and
# kernels' JSON text, made on the reader's threads, has the moved times.
W=1795000000000000000
mk() { # DIR HOST BOOT0 [no summary]
  mkdir "$1"
  {
    echo "RTG: pid:100 tid:100 trace format:1 host:$2 clock:boottime boot_ns:$3 realtime_ns:$W realtime_err:10"
    echo "RTG: pid:100 tid:100 agent index:1 type:gpu name:'gfx90a'"
    echo "HIP: pid:100 tid:100 hipLaunchKernel [k] ret=0 @$(($3 + 500000)) +3000 corr:1"
    echo "HSA: pid:100 tid:100 hsa_signal_wait_scacquire (signal=1) ret=0 @$(($3 + 600000)) +7777"
    echo "HSA: pid:100 tid:100 dispatch queue:0 agent:1 signal:0 name:'k' start:$(($3 + 1000000)) stop:$(($3 + 1002000)) id:1 corr:1"
    [ -n "${4:-}" ] || echo "RTG: pid:100 tid:100 summary dispatches:1 barriers:0 copies:0 hsa_calls:1 hip_calls:1 lost:0 boot_ns:$(($3 + 5000000)) realtime_ns:$((W + 5000000)) realtime_err:10"
  } > "$1/rtg_trace.txt.100"
}
mk a node-a 1000000000000
mk b node-b 4000000000000
mk c node-c 9000000000000 killed
C="$B/rtg-convert"
for n in a b c; do (cd $n && "$C" --part ../$n.part rtg_trace.txt.100); echo "part $n: exit $?"; done
"$C" -v -o all.json a/rtg_trace.txt.100 b/rtg_trace.txt.100 c/rtg_trace.txt.100 > all.v 2> all.err
echo "all at once: exit $?"
"$C" -v --merge -o merged.json a.part b.part c.part > merged.v 2> merged.err
echo "merged: exit $?"
cat merged.err
sed -n '/^hosts/,/^lines/p' merged.v | grep -v '^lines'
cmp all.v merged.v && echo "-v: the same"
cmp all.json merged.json && echo "JSON: the same bytes"
grep -o '"cat":"[a-z]*","ts":[0-9.]*,"dur":[0-9.]*' merged.json
"$C" -q --analyze=all.an a/rtg_trace.txt.100 b/rtg_trace.txt.100 c/rtg_trace.txt.100 > /dev/null
"$C" -q --merge --analyze=merged.an a.part b.part c.part > /dev/null
cmp all.an merged.an && echo "--analyze JSON: the same bytes"
python3 -c 'import json; [print(h) for h in json.load(open("merged.an"))["hosts"]]'
"$C" -q --no-align -o all.n.json a/rtg_trace.txt.100 b/rtg_trace.txt.100 c/rtg_trace.txt.100
"$C" -q --merge --no-align -o merged.n.json a.part b.part c.part
cmp all.n.json merged.n.json && echo "--no-align: the same bytes"
grep -o '"cat":"[a-z]*","ts":[0-9.]*,"dur":[0-9.]*' merged.n.json
