# Gap buckets at their edges: a gap of exactly a limit belongs to the bucket
# above it ("gap <10us" is < 10000 ns); the last bucket is ">=". Custom
# --gaps lists must increase (exit 2 otherwise); -t marks each gap with one "==" per bucket passed.
k() { # start stop seq: a kernel at T0+start ns
  printf 'profile:  kernel;\t%40s;\t   0.0 us;\t%s;\t%s;\t#0.0.%s;\n' k.kd $((1000000 + $1)) $((1000000 + $2)) "$3"
}
{
  k 0 1000 0                  # gaps after each stop:
  k 10999 11000 1             #   9999 ns  -> <10us
  k 21000 21001 2             #   10000 ns -> 10us-20us
  k 41001 41002 3             #   20000 ns -> 20us-50us
  k 141002 141003 4           #   100000 ns -> 100us-1000us
  k 100141002 100141003 5     #   99999999 ns -> 10000us-100000us
  k 200141003 200141004 6     #   100000000 ns -> >=100000us
  k 300141004 300141005 7     #   the ROI stop
} >gaps.log
"$B/rpt" gaps.log | sed 's/ *$//'
echo "== --gaps 100 10 (unsorted: refused, as rtg-convert --gap-buckets 100,10 is)"
"$B/rpt" gaps.log --gaps 100 10 >out.txt 2>err.txt
echo "exit $?, $(wc -c <out.txt) bytes on stdout"
head -n 1 err.txt
echo "== --gaps 10 100"
"$B/rpt" gaps.log --gaps 10 100 | sed -n '/Resource/,$p' | sed 's/ *$//'
echo "== -t markers"
"$B/rpt" -t --hide_app_text gaps.log | grep gap | sed 's/ *$//'
