# --gaps: per GPU and queue busy time and idle gaps in custom buckets, the
# compute/copy overlap, and the largest gaps with the host calls around them.
"$B/rtg-convert" -q --gaps --top-gaps 2 $TOP/tests/data/convert/gen.txt
echo "exit $?"
"$B/rtg-convert" -q --gaps=g.txt --gap-buckets 5,50,500 $TOP/tests/data/convert/small.txt $TOP/tests/data/convert/hcc_strace.txt
echo "exit $?"
cat g.txt
"$B/rtg-convert" -q --gaps --gap-buckets 50,5 $TOP/tests/data/convert/small.txt
echo "exit $?"
