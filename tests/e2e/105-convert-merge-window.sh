# Chrome JSON inputs are merged (cat_timelines.py); --start/--end keep the
# events starting in a window given in microseconds or percent.
"$B/rtg-convert" -q -o a.json $TOP/tests/data/convert/small.txt
"$B/rtg-convert" -q -o m.json a.json $TOP/tests/data/convert/hcc_strace.txt
echo "exit $?"
grep -c '"ph":"X"' m.json
"$B/rtg-convert" -q -v --start 1020 --end 1050 -o w.json $TOP/tests/data/convert/small.txt | grep -i outside
grep '"ph":"X"' w.json | sed 's/,"args".*//'
"$B/rtg-convert" -q -v --start 50% -o p.json $TOP/tests/data/convert/gen.txt | grep -i outside
"$B/rtg-convert" -q --zero --end 10 -o z.json $TOP/tests/data/convert/small.txt
grep '"ph":"X"' z.json | sed 's/,"args".*//'
