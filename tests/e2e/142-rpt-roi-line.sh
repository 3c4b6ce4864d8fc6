# ROI by @LINE: on a record's line; on application text (the record after
# it); on the last text (the last record); past the end (error, exit 1).
D=$TOP/tests/data/rpt
R=$B/rpt
echo "== -r @8 (a record)"; "$R" -r @8 "$D/app.log" | head -n 3
echo "== -r @7 (text: the record after)"; "$R" -r @7 "$D/app.log" | head -n 3
echo "== -r @10 -R @12 (text, record)"; "$R" -r @10 -R @12 "$D/app.log"
echo "== -R @18 (trailing text: the last record)"; "$R" -R @18 "$D/app.log" | head -n 3
echo "== -r @9 -R @4 (start after stop)"; "$R" -r @9 -R @4 "$D/app.log"; echo "exit=$?"
echo "== -r @99"; "$R" -r @99 "$D/app.log"; echo "exit=$?"
