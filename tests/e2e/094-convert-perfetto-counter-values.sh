# The GPU ops-in-flight counter of the Perfetto trace: its values ride on
# the ops' own begin and end packets (extra_counter_values, the counter
# named in each lane's sequence defaults) rather than in packets of their
# own.  The counter's value at every time it changes (the last at that
# time, in Perfetto's order) is the same as with a packet per change
# (RTG_CONVERT_PF_COUNTERS=packets), on ops that come out of time order on
# two GPUs and eight queues, begin and end at the same times (a 0 ns op,
# an op ending as others start, several starting at once) and fill the
# counter's window; on the real traces; and on a natural HSA trace of the
# simulated GPU, whose Perfetto trace stays under 1/3 of the JSON's size.
# A long op whose record comes after those of 3000 short ones that ran
# inside it (the tracer writes an op as it ends) is more changes late
# than the counter's window: rtg-convert says so rather than hide it.
. "$TOP/tests/simgpu/env.sh"
. "$TOP/tests/e2e/12-perfetto.inc"
cat > gen.py <<'PY'
import random, sys
random.seed(94)
print("RTG: pid:100 tid:100 trace format:1 host:node1 clock:CLOCK_BOOTTIME ppid:1 boot_ns:1000000 realtime_ns:1555950992000000000 exe:'/usr/bin/t'")
print("RTG: pid:100 tid:100 agent index:0 type:cpu name:'CPU'")
for a in (1, 2):
    print("RTG: pid:100 tid:100 agent index:%d type:gpu name:'gfx90a' product:'MI210'" % a)
ops, t = [], {}
for i in range(int(sys.argv[1])):
    agent, q = random.choice((1, 2)), random.randrange(4)
    start = t.get((agent, q), 2000000) + 1000 * random.choice((0, 0, 1, 2, 3))
    dur = 1000 * random.choice((0, 1, 1, 2, 5))
    t[(agent, q)] = start + (dur if random.random() < 0.8 else 0)  # else overlapping: a lane more
    ops.append((start + dur, start, agent, q, random.random(), i))
ops.sort()  # completion order, shuffled in runs of 7
for i in range(0, len(ops), 7):
    run = ops[i:i + 7]
    random.shuffle(run)
    ops[i:i + 7] = run
for end, start, agent, q, kind, i in ops:
    if kind < 0.15:
        print("HSA: pid:100 tid:102 copy agent:%d signal:%d start:%d stop:%d dep1:0 dep2:0 dep3:0 dep4:0 dep5:0 bytes:%d kind:HostToDevice corr:%d" % (agent, i + 10, start, end, 4096 + i, i + 1))
    elif kind < 0.25:
        print("HSA: pid:100 tid:102 barrier queue:%d agent:%d signal:%d start:%d stop:%d dep1:0 dep2:0 dep3:0 dep4:0 dep5:0 id:%d" % (q, agent, i + 10, start, end, i + 1))
    else:
        print("HSA: pid:100 tid:102 dispatch queue:%d agent:%d signal:%d name:'k%d' start:%d stop:%d id:%d workgroup:{64,1,1} grid:{1024,1,1} corr:%d" % (q, agent, i + 10, i % 5, start, end, i + 1, i + 1))
    if i % 3 == 0:
        print("HIP: pid:100 tid:101 hipLaunchKernel(f=0x2) [k%d] ret=0 @%d +500 corr:%d" % (i % 5, max(start - 3000, 1000000), i + 1))
PY
python3 gen.py 6000 > ops.txt # 12000 changes: more than the window of 4096 per counter
python3 gen.py 1500 > few.txt
# same_counters OPTIONS... INPUTS: the trace checked against the JSON
# (pf_check), then the counters' values against a packet per change
same_counters() {
  pf_check "$@" > check.txt || { cat check.txt; return 1; }
  python3 "$TOP/tests/perfetto/check_pftrace.py" pf.dec pf.json new.ctr > /dev/null || return 1
  RTG_CONVERT_PF_COUNTERS=packets "$B/rtg-convert" -q "$@" -o old.pftrace || return 1
  protoc --decode=rtgpf.Trace -I"$TOP/tests/perfetto" "$TOP/tests/perfetto/pftrace.proto" <old.pftrace >old.dec
  python3 "$TOP/tests/perfetto/check_pftrace.py" old.dec pf.json old.ctr > old.txt || { cat old.txt; return 1; }
  extra=$(grep -c 'extra_counter_values' pf.dec)
  own=$(grep -c ' counter_value:' pf.dec)
  cmp -s new.ctr old.ctr && same=same || same=DIFFERENT
  echo "$(wc -l < new.ctr) counter values, $same; carried by ops: $extra, packets of their own: $own (before: $(grep -c ' counter_value:' old.dec)); smaller: $([ "$(wc -c < pf.pftrace)" -lt "$(wc -c < old.pftrace)" ] && echo yes || echo no)"
}
echo "== ops out of order, at equal times, over the window"
same_counters -f ops.txt
echo "== the same, -p --zero; -g"
same_counters -f -p --zero ops.txt
same_counters -f -g ops.txt
echo "== fewer ops than the window, in reverse order"
sort -r -k1,1 few.txt > rev.txt
same_counters -f rev.txt
R="$TOP/tests/data/convert/real"
for f in hsa_vadd sg_hip hip_streams_2gpu; do
  echo "== $f -f -g -k"
  same_counters -f -g -k "$R/$f.txt"
done
echo "== natural: hsa_threads 4 x 300, every HSA call"
mkdir nat
(cd nat && "$B/rtg-trace" --hsa-trace -o . "$B/examples/hsa_threads" 4 300 > /dev/null) || echo "rtg-trace failed: exit $?"
cat nat/rtg_trace.txt.* > n.txt
same_counters -f n.txt | sed 's/: [0-9]*, packets of their own: [0-9]* (before: [0-9]*)/: N, packets of their own: N (before: N)/; s/^[0-9]* counter values/N counter values/'
awk -v p="$(wc -c < pf.pftrace)" -v j="$(wc -c < pf.json)" 'BEGIN { printf "size share of the JSON under 1/3: %s\n", p / j < 1 / 3 ? "yes" : "no (" p / j ")" }'
echo "== a long op written after 3000 short ones that ran inside it"
python3 - > late.txt <<'PY'
print("RTG: pid:100 tid:100 trace format:1 host:h clock:boottime")
print("RTG: pid:100 tid:100 agent index:1 type:gpu name:'gfx90a'")
for k in range(3000):
    s = 2000 + 1000 * k
    print("HSA: pid:100 tid:101 dispatch queue:0 agent:1 signal:0 name:'short' start:%d stop:%d id:%d" % (s, s + 500, k + 1))
print("HSA: pid:100 tid:101 dispatch queue:1 agent:1 signal:0 name:'long' start:1000 stop:10000000 id:3001")
print("RTG: pid:100 tid:100 summary dispatches:3001 barriers:0 copies:0 hsa_calls:0 hip_calls:0 lost:0")
PY
"$B/rtg-convert" -f -o late.pftrace late.txt 2>late.err
echo "exit $?"
cat late.err
