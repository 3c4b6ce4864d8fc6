# rpt on a hand-built HCC_PROFILE=2 log (tests/data/rpt/gen-seed002.py) that
# reproduces the rpt example of rocm-timeline-generator's README: the report
# equals the README's text once the original's trailing padding is removed,
# and the full output (padding included) is the golden file.
D=$TOP/tests/data/rpt
"$B/rpt" "$D/seed002.log" >out.txt
echo "exit=$?"
if sed 's/ *$//' out.txt | diff "$D/seed002-readme.txt" -; then
  echo "README example reproduced exactly"
fi
sed 's/$/|/' out.txt
