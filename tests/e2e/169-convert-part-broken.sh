# --part and --merge given wrong, and parts that are broken: one clear line
# each, the exit status, and an existing output left as it was.
mk() { # FILE HOST PID
  cat > "$1" <<EOT
RTG: pid:$3 tid:$3 trace format:1 host:$2 clock:boottime
RTG: pid:$3 tid:$3 agent index:1 type:gpu name:'gfx90a'
HSA: pid:$3 tid:$3 dispatch queue:0 agent:1 signal:0 name:'k' start:1000000 stop:1002000 id:1
RTG: pid:$3 tid:$3 summary dispatches:1 barriers:0 copies:0 hsa_calls:0 hip_calls:0 lost:0
EOT
}
mk t.1 a 1
mk t.2 b 2
echo '[{"name":"x","ph":"X","ts":1,"dur":2,"pid":9,"tid":9}]' > c.json
C="$B/rtg-convert"
run() { "$@" > out.txt 2>&1; echo "exit $?: $(sed "s|$B/||" out.txt | tr '\n' ' ')"; }
echo old > keep.part
echo old > keep.json
echo "== usage"
run "$C" --part keep.part -o x.json t.1
run "$C" --part keep.part --merge t.1
run "$C" --part keep.part - < t.1
run "$C" --part t.1 t.1 t.2
run "$C" --part keep.part
cat keep.part t.1
echo "== inputs --part cannot pack"
run "$C" --part keep.part t.1 missing
run "$C" --part keep.part t.1 c.json
run "$C" --part keep.part t.1 .
cat keep.part
run "$C" --part /dev/full t.1
echo "== a file twice: packed once"
run "$C" --part p.part t.1 t.1 t.2
grep -c '^RTG-PART-FILE' p.part
echo "== a part without --merge, a part in a part"
run "$C" -o keep.json p.part
run "$C" --part keep.part t.1 p.part
cat keep.part
echo "== broken parts"
head -c 300 p.part > cut.part
run "$C" --merge -o keep.json cut.part
sed 's/^RTG-PART-FILE offset:[0-9]*/RTG-PART-FILE offset:99999999/' p.part > far.part
run "$C" --merge -o keep.json far.part
sed 's/files:2$/files:3/' p.part > count.part
run "$C" --merge -o keep.json count.part
sed '$d' p.part > noindex.part
run "$C" --merge -o keep.json noindex.part
cat keep.json
echo "== a trace whose last line holds NUL bytes, right before the index"
{ cat t.2; printf 'junk\0\0\n'; } > nul.2
"$C" --part nul.part nul.2
run "$C" --merge -o nul.json nul.part
echo "== --merge: parts beside other inputs, in order"
run "$C" --merge -q -o m.json p.part c.json
run "$C" -q -o a.json t.1 t.2 c.json
cmp m.json a.json && echo "same bytes"
echo "== a trace of a part with a problem: named by the part and its path"
head -n 3 t.1 > t.3
"$C" --part q.part t.3 2>&1
"$C" --merge -o /dev/null q.part 2>&1
echo "exit $?"
