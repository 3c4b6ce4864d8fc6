# The analysis's parts that run side by side on a large GPU (from 64k ops:
# the ops' order beside the resolving of their callers, the radix sorts'
# passes in parts, the ops' gathering and dependencies beside the calls'
# sorting and segments, a GPU's queues, the critical path's links (its
# queue links and synchronisations' wakes in parts), the idle causes'
# interval sets, the idle time in parts of consecutive idle intervals
# with their pieces put in their slots, the launch decomposition's
# distributions; RTG_ANALYZE_APART changes where) give what they give one
# after another:
# generated traces of one and of three processes (a GPU each, two queues,
# copies) analysed with every part side by side (RTG_ANALYZE_APART=1) and
# with none (a billion): --analyze's text and JSON, the --html report and
# the timeline with the idle slices of each GPU and queue (-g), byte for
# byte the same; the report's data elements in their order.
cc -O1 ${SAN:+-fsanitize=$SAN} -I"$TOP/include" -o gen "$TOP/scripts/bench-convert-gen.c" "$B/librtgcommon.a"
./gen 4000000 5 1 > one.txt
./gen 6000000 6 3 > three.txt
for t in one three; do
  for a in 1 1000000000; do
    RTG_ANALYZE_APART=$a "$B/rtg-convert" -q --analyze=$t.$a.json --html $t.$a.html -g \
      -o $t.$a.tl.json $t.txt > $t.$a.txt ||
      echo "$t, RTG_ANALYZE_APART=$a: exit $?"
  done
  same=yes
  for f in txt json html tl.json; do cmp -s $t.1.$f $t.1000000000.$f || { echo "$t: $f differs"; same=no; }; done
  python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print("%s: %d GPUs, %d queues, %d critical paths" % (sys.argv[2], len(d["gpus"]),
      sum(len(g["queues"]) for g in d["gpus"]), len(d["critical_path"])))' $t.1.json $t
  echo "$t: $(grep -c 'dispatch' $t.txt) kernels, $(grep -c ' copy ' $t.txt) copies; all side by side and none the same: $same"
done
grep -o 'id="rtg-[a-z]*"' one.1.html | tr '\n' ' '
echo
