# --gaps on real traces: busy time and idle gaps per GPU and queue in rpt's
# buckets and custom ones, compute/copy overlap, largest gaps with the host
# calls around them.
R="$TOP/tests/data/convert/real"
"$B/rtg-convert" -q --gaps --top-gaps 3 "$R/sg_hip.txt"
echo "exit $?"
"$B/rtg-convert" -q --gaps=g.txt --gap-buckets 10,100,1000 "$R/hip_streams_2gpu.txt" "$R/hsa_vadd.txt"
echo "exit $?"
cat g.txt
