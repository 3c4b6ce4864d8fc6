# --stats writes rocprof's four CSVs (Name..MedianNs, by total time);
# --summary prints them as tables.
"$B/rtg-convert" -q --stats=st --summary $TOP/tests/data/convert/small.txt $TOP/tests/data/convert/hcc_strace.txt $TOP/tests/data/convert/gen.txt
echo "exit $?"
for f in kernel_stats hip_api_stats hsa_api_stats memory_copy_stats; do echo "== $f.csv"; head -n 4 st/$f.csv; done
