# A real HIP trace on 2 simulated GPUs (hip_streams): tracks per GPU and
# queue, lanes where ops overlap, arrows for every launch, -p grouping.
R="$TOP/tests/data/convert/real"
for opts in "-f" "-f -p"; do
  echo "== $opts"
  "$B/rtg-convert" -q $opts -o out.json "$R/hip_streams_2gpu.txt"
  echo "exit $?"
  "$B/tests/test_convert_chrome" out.json | sed 's/.*: //'
  "$B/tests/test_convert_chrome" --facts out.json | sed -n '/^events/,/^slices/p;/^names/,$p'
done
