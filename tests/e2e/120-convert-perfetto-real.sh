# Native Perfetto trace (-o FILE.pftrace) of the real recordings: decoded
# by protoc and checked against the Chrome JSON of the same input and
# options (tracks and names in order, every slice and its arguments, slice
# nesting per track, flows, interning), with flows, gaps, kernel names.
. "$TOP/tests/e2e/12-perfetto.inc"
R="$TOP/tests/data/convert/real"
for f in hsa_vadd sg_hip hip_streams_2gpu; do
  echo "== $f -f"
  pf_check -f "$R/$f.txt"
  echo "== $f -f -g -k"
  pf_check -f -g -k "$R/$f.txt"
done
echo "== all three, -f -p"
pf_check -f -p "$R/hsa_vadd.txt" "$R/sg_hip.txt" "$R/hip_streams_2gpu.txt"
echo "== all three, -f (tracks named by pid)"
pf_check -f "$R/hsa_vadd.txt" "$R/sg_hip.txt" "$R/hip_streams_2gpu.txt"
grep -c '"HIP 12920"' pf.dec
grep -c '"12920 HIP 12920"' pf.dec
