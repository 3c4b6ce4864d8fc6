# The number of reader threads changes nothing in the outputs: a generated
# trace of 6 MB (six 1 MB chunks, cut mid-line) and the same reversed,
# converted with 1, 2, 3 and 8 readers (RTG_READER_THREADS) to JSON,
# Perfetto, the statistics, the gap report and rocprofv3's CSV files: byte
# for byte the same; and a trace of calls with many distinct arguments to
# Perfetto.  RTG_READER_STATS=1 prints the caller's and each
# reader's CPU time and waits.
cc -O1 ${SAN:+-fsanitize=$SAN} -I"$TOP/include" -o gen "$TOP/scripts/bench-convert-gen.c" "$B/librtgcommon.a"
./gen 6000000 2 2 > t.txt
tac t.txt > r.txt
for in in t.txt r.txt; do
  for n in 1 2 3 8; do
    export RTG_READER_THREADS=$n
    "$B/rtg-convert" -q -f -o "$n.json" "$in" || echo "exit $?"
    "$B/rtg-convert" -q -f -o "$n.pftrace" "$in" || echo "exit $?"
    "$B/rtg-convert" -q --stats="s$n" --gaps="s$n/gaps.txt" --csv "c$n" "$in" > /dev/null || echo "exit $?"
  done
  unset RTG_READER_THREADS
  differ=0
  for n in 2 3 8; do
    for f in json pftrace; do cmp -s "1.$f" "$n.$f" || { echo "$in: $n readers: $f differs"; differ=1; }; done
    diff -r s1 "s$n" > /dev/null || { echo "$in: $n readers: statistics differ"; differ=1; }
    diff -r c1 "c$n" > /dev/null || { echo "$in: $n readers: CSV files differ"; differ=1; }
  done
  [ $differ = 1 ] || echo "$in: $(wc -l < "$in") lines, $(ls s1 c1/* | wc -l) report files: the same with 1, 2, 3 and 8 readers"
  rm -rf s? c?
done
# HSA calls with 60000 distinct argument lists recurring at random: the
# Perfetto output's caches evict, and the producers' dictionaries of calls
# (src/convert/out/perfetto/perfetto_calls.c) fill up and each hold a different share; the output
# must still not depend on how the lines were shared
./gen 12000000 7 1 hsa | awk 'BEGIN { srand(7) } /^HSA: .* @/ { sub(/\(/, "(n=" int(rand() * 60000) ", ") } { print }' > d.txt
for n in 1 2 3 8; do RTG_READER_THREADS=$n "$B/rtg-convert" -q -f -o "d$n.pftrace" d.txt || echo "exit $?"; done
same=1
for n in 2 3 8; do cmp -s d1.pftrace "d$n.pftrace" || { echo "distinct calls: $n readers: Perfetto differs"; same=0; }; done
[ $same = 0 ] || echo "distinct calls: $(wc -l < d.txt) lines: the same Perfetto output with 1, 2, 3 and 8 readers"
RTG_READER_THREADS=3 RTG_READER_STATS=1 "$B/rtg-convert" -q -w t.txt 2> stats.txt > /dev/null
awk '/^rtg reader: [0-9]+ producers, [0-9]+ chunks, [0-9.]+ ms open; caller: CPU [0-9.]+ ms, waited [0-9]+ times [0-9.]+ ms$/ {
    print "caller: " $3 " producers, " $5 " chunks"; next }
  /^rtg reader: producer [0-9]+: CPU [0-9.]+ ms, waited [0-9]+ times [0-9.]+ ms$/ { p++; next }
  { print "unexpected: " $0 }
  END { print "producer lines: " p }' stats.txt
