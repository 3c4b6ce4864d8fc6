# Many trace files through one reader: 24 rank files of 4 hosts (each two
# chunks of the reader), given with the hosts interleaved, one file that
# holds two hosts' processes (no JSON text made ahead for it) and one
# reversed (its prescan reads it whole).  The producers read on into the
# next files and make their prescans and JSON text with each file's own
# host map: the JSON and --summary are the same bytes with 1, 3 and 16
# producers, under ulimit -n 6, 10 and 13 with 16 asked (the producers
# are bounded by the files left to open; with too few for one, the caller
# reads alone, one input open at a time), and when every file is read by
# a reader of its own (a file given twice between them ends a reader);
# the kernels' JSON starts are the CSV's (moved on the caller's thread).
cc -O2 -I"$TOP/include" -I"$TOP/src/common" -o gen "$TOP/scripts/bench-convert-gen.c" "$TOP/src/common/record.c" || exit 1
mkdir r && ./gen ranks r 24 4 8000 || exit 1
cat r/rtg_trace.txt.node0.4 r/rtg_trace.txt.node1.5 > r/two-hosts && rm r/rtg_trace.txt.node0.4 r/rtg_trace.txt.node1.5
tac r/rtg_trace.txt.node2.6 > r/reversed && rm r/rtg_trace.txt.node2.6
ls r/rtg_trace.txt.* | sort -t. -k4 -n > list
sed -i '3a r/two-hosts' list && sed -i '8a r/reversed' list
echo "inputs: $(wc -l < list)"
C="$B/rtg-convert"
for t in 1 3 16; do
  RTG_READER_THREADS=$t "$C" -q --summary -f -o t$t.json $(cat list) > t$t.sum
  echo "$t producers: exit $?"
done
cmp t1.json t3.json && cmp t1.json t16.json && cmp t1.sum t3.sum && cmp t1.sum t16.sum && echo "1, 3, 16 producers: the same bytes"
for n in 6 10 13; do
  RTG_READER_THREADS=16 sh -c "ulimit -n $n && exec \"\$@\"" sh "$C" -q --summary -f -o lim$n.json $(cat list) > lim$n.sum
  echo "ulimit -n $n, 16 asked: exit $?"
  cmp t1.json lim$n.json && cmp t1.sum lim$n.sum && echo "ulimit -n $n: the same bytes"
done
# each file a reader of its own: the first file again between every two
first=$(head -1 list)
"$C" --summary -f -o own.json $(sed "1!s|^|$first\n|" list) > own.sum 2> own.err
echo "a reader each: exit $?, $(grep -c 'the same file as an earlier input' own.err) warnings"
cmp t1.json own.json && cmp t1.sum own.sum && echo "a reader each: the same bytes"
"$C" -q --csv csv $(cat list)
echo "csv: exit $?"
python3 - <<'EOF'
import csv, glob, json
js = sorted(round(e["ts"] * 1000) for e in json.load(open("t16.json"))["traceEvents"]
            if e.get("cat") == "kernel" and e.get("ph") == "X")
cs = sorted(int(row["Start_Timestamp"]) for f in glob.glob("csv/*/*_kernel_trace.csv")
            for row in csv.DictReader(open(f)))
base = min(cs)
print("kernels:", len(js) == len(cs) and len(js) > 1000,
      "; JSON starts are the CSV's:", [j - js[0] for j in js] == [c - base for c in cs])
EOF
