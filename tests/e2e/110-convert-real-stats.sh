# --stats and --summary on the three real traces together: rocprof's four
# CSVs, whole, and the terminal tables.
R="$TOP/tests/data/convert/real"
"$B/rtg-convert" -q --stats=st --summary "$R/hsa_vadd.txt" "$R/sg_hip.txt" "$R/hip_streams_2gpu.txt"
echo "exit $?"
for f in kernel_stats hip_api_stats hsa_api_stats memory_copy_stats; do echo "== $f.csv"; cat st/$f.csv; done
