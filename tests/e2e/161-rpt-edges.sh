# rpt at the user's edges (issue 25, item 13): barrier records of an rtg
# trace are named as rtg-convert names their slices (barrier, barrier-or,
# barrier-value); on an rtg trace without -R the ROI is the whole trace and
# its last command counts, while an HCC_PROFILE log keeps the original's
# rule (the stop command only closes the ROI); --gaps limits must increase
# (exit 2, as rtg-convert --gap-buckets); --info alone explains the output;
# -g JSON_FILE replaces an existing file only when rpt succeeds.
export LC_ALL=C
D=$TOP/tests/data/rpt
R=$B/rpt
T=$D/rtg_trace.txt.1000 # 5 dispatches, 1 barrier, 2 copies; vadd.kd last
{
  head -n 12 "$T"
  echo "HSA: pid:1000 tid:1001 barrier queue:0 agent:1 signal:0 start:1078000 stop:1079000 dep1:0 dep2:0 dep3:0 dep4:0 dep5:0 id:5 op:or"
  echo "HSA: pid:1000 tid:1001 barrier queue:0 agent:1 signal:0 start:1086000 stop:1087000 dep1:0 dep2:0 dep3:0 dep4:0 dep5:0 id:6 op:value value:0 mask:1 cond:eq"
  tail -n +13 "$T"
} >barriers.txt
echo "== barrier names"
"$R" barriers.txt | grep -E 'barrier|Showing' | sed 's/ *$//'
echo "== the last command of an rtg trace counts (vadd.kd: 3 calls, as the trace has)"
"$R" "$T" | grep -E 'ROI_STOP|vadd.kd|Showing' | sed 's/ *$//'
echo "== -R names the stop: it only closes the ROI, as in the original"
"$R" -R @15 "$T" | grep -E 'vadd.kd|Showing' | sed 's/ *$//'
echo "== an HCC_PROFILE log keeps the original's rule"
"$R" "$D/app.log" | grep -c 'Showing'
"$R" "$D/app.log" | head -n 3 | sed 's/ *$//'
echo "== --gaps out of order"
"$R" --gaps 100 10 "$T" >out.txt 2>err.txt
echo "exit $?, $(wc -c <out.txt) bytes on stdout"
head -n 1 err.txt
"$R" --gaps 10 10 "$T" >/dev/null 2>&1
echo "--gaps 10 10: exit $?"
"$B/rtg-convert" --gap-buckets 100,10 "$T" >/dev/null 2>&1
echo "rtg-convert --gap-buckets 100,10: exit $?"
echo "== --info without a file"
"$R" --info >info.txt 2>&1
echo "exit $?, $(wc -l <info.txt) lines, first: $(head -n 1 info.txt)"
echo "== -g: kept byte for byte when rpt fails, replaced when it succeeds"
printf '{"kept":1}\n' >g.json
cp g.json g.orig
"$R" -g g.json -r @99999 "$T" >/dev/null 2>err.txt
echo "ROI not found: exit $?, g.json $(cmp -s g.json g.orig && echo kept || echo CHANGED)"
sed 's/^/  /' err.txt
"$R" -g g.json --gaps 100 10 "$T" >/dev/null 2>err.txt
echo "--gaps 100 10: exit $?, g.json $(cmp -s g.json g.orig && echo kept || echo CHANGED)"
"$R" -g g.json "$T" missing.txt >/dev/null 2>err.txt
echo "an input missing: exit $?, g.json $(cmp -s g.json g.orig && echo kept || echo CHANGED)"
sed 's/^/  /' err.txt
printf 'no records here\n' >text.txt
"$R" -g g.json text.txt >/dev/null 2>err.txt
echo "no records: exit $?, g.json $(cmp -s g.json g.orig && echo kept || echo CHANGED)"
sed 's/^/  /' err.txt
"$R" -g g.json "$T" >/dev/null 2>err.txt
echo "good: exit $?, g.json $(cmp -s g.json g.orig && echo kept || echo replaced), $(grep -o '"ph":"X"' g.json | wc -l) slices"
echo "temporary files left: $(find . -name '.*rtg-*' | wc -l)"
