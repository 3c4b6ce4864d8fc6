# Flows when the pairing tables spill (RTG_CONVERT_CORR_SLOTS=1024, every GPU
# op after all the calls, as in 115): the pairs found at the end are written
# as flow events after both slices, and the trace still has exactly the
# JSON's arrows.
. "$TOP/tests/e2e/12-perfetto.inc"
cc -O1 ${SAN:+-fsanitize=$SAN} -I"$TOP/include" -o gen "$TOP/scripts/bench-convert-gen.c" "$B/librtgcommon.a"
./gen 3000000 7 2 > t.txt
grep -v '^HSA: .* \(dispatch\|copy\) ' t.txt > far.txt
grep '^HSA: .* \(dispatch\|copy\) ' t.txt >> far.txt
echo "== ops after their calls"
pf_check -f t.txt | sed -n 2p
echo "== ops far after their calls, tables of 1024"
export RTG_CONVERT_CORR_SLOTS=1024
pf_check -f far.txt | sed -n 2p
"$B/rtg-convert" -q -v -f -o s.pftrace far.txt | grep '^flows' | sed 's/[0-9]* waited/N waited/; s/[0-9]* of them/N of them/'
