# -t: every command of the ROI in start order, the application text that
# preceded it ("> "), gap lines; --hide_app_text; --info explains fields.
D=$TOP/tests/data/rpt
R=$B/rpt
echo "== -t"; "$R" -t "$D/app.log" | sed 's/$/|/'
echo "== -t --hide_app_text -r @7 -R @13"; "$R" -t --hide_app_text -r @7 -R @13 "$D/app.log" | sed 's/ *$//'
echo "== --info"; "$R" --info -t "$D/app.log" | sed -n '/^How/,/^Resource /p' | head -n 3
"$R" --info -t "$D/app.log" | grep -c '^Resource        Start(ms)'
