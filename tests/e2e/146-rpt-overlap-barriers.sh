# Overlap on a resource: a command starting before the previous stop counts
# only its part after that stop (0 when inside it); --no_gaps drops gap rows
# and takes percentages of busy time; --ignore_barriers drops barriers;
# a barrier named "depcnt,acquire,release" starts at its stop (original).
D=$TOP/tests/data/rpt
R=$B/rpt
echo "== default"; "$R" "$D/app.log" | sed -n '/GPU0/,/^$/p' | sed 's/ *$//'
echo "== --no_gaps"; "$R" --no_gaps "$D/app.log" | sed -n '/Resource=GPU0/,/^$/p' | sed 's/ *$//'
echo "== --ignore_barriers"; "$R" --ignore_barriers "$D/app.log" | sed 's/ *$//'
echo "== barrier with dependencies"
{
  printf 'profile:  kernel;\t%40s;\t  10.0 us;\t1000;\t11000;\t#0.0.0;\n' a.kd
  printf 'profile: barrier;\t%40s;\t  20.0 us;\t2000;\t22000;\t#0.0.1;\n' "1,system,system"
  printf 'profile:  kernel;\t%40s;\t  10.0 us;\t30000;\t40000;\t#0.0.2;\n' b.kd
  printf 'profile:  kernel;\t%40s;\t   1.0 us;\t50000;\t51000;\t#0.0.3;\n' c.kd
} >deps.log
"$R" -t deps.log | sed 's/ *$//'
