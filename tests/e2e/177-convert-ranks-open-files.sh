# 1,000 rank files (8 hosts) through rtg-convert with at most 10 open
# files (ulimit -n 10: stdin, stdout, stderr, the outputs and one input at
# a time): all at once, each node's --part, and --merge of the 4 parts all
# succeed, and the merged outputs are the bytes of the one-step ones.  A
# converter that kept every input open would stop at the 8th file.
cc -O2 -I"$TOP/include" -I"$TOP/src/common" -o gen "$TOP/scripts/bench-convert-gen.c" "$TOP/src/common/record.c" || exit 1
mkdir r && ./gen ranks r 1000 8 20 || exit 1
sh -c 'ulimit -n 10' || { echo "SKIP: cannot lower the open files limit"; exit 77; }
C="lim $B/rtg-convert"
lim() { sh -c 'ulimit -n 10 && exec "$@"' sh "$@"; }
$C -q --summary -f -o all.json r/* > all.sum
echo "all at once: exit $?, $(grep -c '"cat":"kernel"' all.json) kernels"
for n in 0 1 2 3; do
  $C --part node$n.part $(ls r/* | awk -F. -v n=$n '{ split($3, h, "node"); if (h[2] % 4 == n) print }')
  echo "part $n: exit $?, $(grep -c '^RTG-PART-FILE' node$n.part) files"
done
# (the files in the order the parts hold them)
$C -q --summary -f -o all2.json $(cat node*.part | sed -n 's/^RTG-PART-FILE .* path://p') > all2.sum
$C -q --merge --summary -f -o merged.json node0.part node1.part node2.part node3.part > merged.sum
echo "merge: exit $?"
cmp all2.json merged.json && cmp all2.sum merged.sum && echo "merged: the same bytes"
