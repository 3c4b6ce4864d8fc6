# rtg traces (no HCC_PROFILE needed): dispatches and barriers on GPU<n>
# (GPU agents numbered by agent index, agent fields matched as index or
# handle, unknown agents after), copies on DATA named kind_bytes_bytes;
# several files merged by time; text lines stay text.
D=$TOP/tests/data/rpt
R=$B/rpt
echo "== one trace"; "$R" "$D/rtg_trace.txt.1000" | sed 's/ *$//'
echo "== two traces"; "$R" "$D/rtg_trace.txt.1000" "$D/rtg_trace.txt.1001" | sed 's/ *$//'
echo "== -t on a trace"; "$R" -t -r @11 "$D/rtg_trace.txt.1000" | sed 's/ *$//'
echo "== a legacy log and a trace together"; "$R" "$D/app.log" "$D/rtg_trace.txt.1001" --topn 1 | sed 's/ *$//'
echo "== a trace with profile: lines too: the first kind wins"
{ cat "$D/rtg_trace.txt.1001"; head -n 3 "$D/app.log"; } >mixed.txt
"$R" mixed.txt 2>&1 | sed 's/ *$//' | head -n 4
