# ROI by ^TIME, from the first record's start: ms by default (as -t shows
# start times), or with a unit; the first record starting at or after it.
D=$TOP/tests/data/rpt
R=$B/rpt
echo "== ^0.05 (ms)"; "$R" -r ^0.05 "$D/app.log" | head -n 3
echo "== ^50us"; "$R" -r ^50us "$D/app.log" | head -n 1
echo "== ^50001ns"; "$R" -r ^50001ns "$D/app.log" | head -n 1
echo "== ^0.0001s -R ^0.15"; "$R" -r ^0.0001s -R ^0.15 "$D/app.log"
echo "== ^1s"; "$R" -r ^1s "$D/app.log"; echo "exit=$?"
