# Options on a real trace: -g gap events, -w workgroups, --zero, windows
# in percent and microseconds, -v counts, all outputs at once.
R="$TOP/tests/data/convert/real"
echo "== -g -w --zero"
"$B/rtg-convert" -q -g -w --zero -f -o out.json "$R/hip_streams_2gpu.txt"
echo "exit $?"
"$B/tests/test_convert_chrome" out.json | sed 's/.*: //'
"$B/tests/test_convert_chrome" --facts out.json | sed -n '/^events/,/^slices/p' 
grep -c '"cat":"gap"' out.json
echo "first ts: $(grep -o '"ts":[0-9.]*' out.json | sed 's/"ts"://' | sort -n | head -n 1)"
echo "== --start 60% --end 95% (the first half is mostly one 30 ms kernel)"
"$B/rtg-convert" -q -v --start 60% --end 95% -o w.json "$R/sg_hip.txt" | grep -E 'outside|hip_api|dispatch'
"$B/tests/test_convert_chrome" w.json | sed 's/.*: //'
echo "== everything at once"
"$B/rtg-convert" -q -f -o all.json --stats=st --gaps=g.txt --sqlite all.rpd "$R/sg_hip.txt" "$R/hsa_vadd.txt"
echo "exit $?"
ls st g.txt all.rpd all.json | sort
