# Bad input: truncated, garbage, binary, huge and out-of-order lines are
# warned about (file:line, rate-limited), counted, skipped; the output stays
# valid and the exit status is 0.  A missing input is exit 1, usage 2.
"$B/rtg-convert" -v -o out.json $TOP/tests/data/convert/bad.txt 2>err.txt
echo "exit $?"
sed "s|$TOP/||" err.txt
"$B/tests/test_convert_chrome" out.json | sed "s/:.*events/: events/"
head -c 3000000 /dev/zero | tr '\\0' x > huge.txt; echo >> huge.txt; cat $TOP/tests/data/convert/small.txt >> huge.txt
"$B/rtg-convert" -q -v -o h.json huge.txt | grep -E 'too long|dispatch '
echo "exit $?"
: > empty.txt
"$B/rtg-convert" -o e.json empty.txt 2>&1; echo "exit $?"
cat e.json
"$B/rtg-convert" -o m.json missing.txt empty.txt 2>&1; echo "exit $?"
"$B/rtg-convert" -q --strict -o s.json $TOP/tests/data/convert/bad.txt 2>&1; echo "exit $?"
"$B/rtg-convert" 2>&1; echo "exit $?"
"$B/rtg-convert" --bogus x 2>&1; echo "exit $?"
"$B/rtg-convert" --start abc x 2>&1; echo "exit $?"
"$B/rtg-convert" --version
"$B/rtg-convert" --help | head -n 2
