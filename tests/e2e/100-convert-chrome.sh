# rtg records -> Chrome JSON: every kind of record, escaping, invalid UTF-8,
# flows (-f), a bad line and a stop-before-start line (warned, skipped, exit 0).
"$B/rtg-convert" -f -o out.json "$TOP/tests/data/convert/small.txt" 2>err.txt
echo "exit $?"
sed 's/.*small.txt/small.txt/' err.txt
cat out.json
