# --topn: rows per resource (default 20); -1 all; 0 none; the header counts
# what is shown out of how many.
D=$TOP/tests/data/rpt
R=$B/rpt
for n in 2 -1 0 100; do
  echo "== --topn $n"; "$R" --topn "$n" "$D/app.log" | sed -n '/Resource=GPU0/,/^$/p' | sed 's/ *$//'
done
echo "== default 20 on 30 names"
i=0
while [ $i -lt 30 ]; do
  printf 'profile:  kernel;\t%40s;\t   0.0 us;\t%d;\t%d;\t#0.0.%d;\n' "k$i.kd" $((i * 1000)) $((i * 1000 + 100 + i)) $i
  i=$((i + 1))
done >many.log
"$R" many.log --no_gaps | sed -n '/Resource=/p'
"$R" many.log --no_gaps | grep -c '\.kd'
