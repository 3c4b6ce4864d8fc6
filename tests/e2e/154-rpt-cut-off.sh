# A last line without '\n' that is a record, whole or not, was cut off while
# it was written (the tracer or the application was killed): even when it
# parses, a number in it may be cut short.  As rtg-convert does, rpt warns
# with file:line ("last line cut off"), counts it, and reports the good
# records; exit status 0.  A last line of other text without '\n' is text.
D=$TOP/tests/data/rpt
R=$B/rpt
T=$D/rtg_trace.txt.1000
head -n 15 "$T" >good.txt # up to the last dispatch
"$R" -t good.txt >good.out 2>&1
"$R" -t "$D/app.log" >log.out 2>&1
check() { # NAME REFERENCE FILE [<stdin]: exit status, the report against REFERENCE, stderr
  name=$1 ref=$2 f=$3
  "$R" -t "$f" >out.txt 2>err.txt
  st=$?
  if cmp -s "$ref" out.txt; then same="the same"; else same="NOT the same"; fi
  echo "== $name: exit=$st, report $same as without it"
  cat err.txt
}
cp good.txt mid.txt
printf "HSA: pid:1000 tid:1001 dispatch queue:0 agent:1 signal:5 name:'vad" >>mid.txt
check "a dispatch cut in its name" good.out mid.txt
cp good.txt parses.txt # the whole line ended "stop:1130000 id:51"
printf "HSA: pid:1000 tid:1001 dispatch queue:0 agent:1 signal:5 name:'vadd.kd' start:1120000 stop:1130000 id:5" >>parses.txt
check "a dispatch cut in its id (it parses)" good.out parses.txt
cp good.txt api.txt
printf "HIP: pid:1000 tid:1000 hipMemcpy ret=0 @1200000 +" >>api.txt
check "an API record cut" good.out api.txt
cp good.txt crlf.txt
printf "HSA: pid:1000 tid:1001 copy agent:0 signal:7 start:1120000 stop:1130000\r" >>crlf.txt
check "a copy cut after a CR" good.out crlf.txt
cp good.txt text.txt
printf "Segmentation fault" >>text.txt
"$R" good.txt >good-notext.out 2>&1 # (-t would show the text)
"$R" text.txt >out.txt 2>err.txt
echo "== application text without a newline: exit=$?, $(cmp -s good-notext.out out.txt && echo the same || echo NOT the same) report, $(wc -l <err.txt) warnings"
cp "$D/app.log" log.txt
printf 'profile:  kernel;\t%40s;\t  10.0 us;\t1000100;\t11' vadd.kd >>log.txt
check "a legacy log cut in a profile: line" log.out log.txt
echo "== stdin"
cat mid.txt | "$R" - 2>&1 >out.txt
echo "exit=$?, report $(cmp -s good-notext.out out.txt && echo the same || echo NOT the same)"
echo "== all that is left of the file"
printf "HSA: pid:1000 tid:1001 dispatch queue:0 agent:1 signal:5 name:'vadd.kd' start:1" >only.txt
"$R" only.txt 2>&1
echo "exit=$?"
