# Flow arrows without loss: with tables limited to 1024 entries (so calls
# and ops far apart in the input wait in a temporary file) the arrows are
# the same as with the default tables, and -v says how they were found.
cc -O1 ${SAN:+-fsanitize=$SAN} -I"$TOP/include" -o gen "$TOP/scripts/bench-convert-gen.c" "$B/librtgcommon.a"
./gen 3000000 7 2 > t.txt
# every GPU op after all the calls: far beyond 1024 entries
grep -v '^HSA: .* \(dispatch\|copy\) ' t.txt > far.txt
grep '^HSA: .* \(dispatch\|copy\) ' t.txt >> far.txt
"$B/rtg-convert" -q -v -f -o a.json far.txt | grep '^flows'
RTG_CONVERT_CORR_SLOTS=1024 "$B/rtg-convert" -q -v -f -o b.json far.txt | grep '^flows' | sed 's/[0-9]* waited/N waited/; s/[0-9]* of them/N of them/'
grep -c '"ph":"f"' a.json b.json | sed 's/.*://' | uniq -c | sed 's/^ *//'
"$B/tests/test_convert_chrome" b.json | sed 's/.*: [0-9]* events.*/checked/'
