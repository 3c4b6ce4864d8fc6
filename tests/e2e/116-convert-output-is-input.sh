# An output that is also an input (by its name, a hard link or a symbolic
# link) is refused before anything is written: writing it would destroy the
# trace before it is read.  Each way exits 2, names the file, and leaves the
# trace as it was; a different output still works.
cp "$TOP/tests/data/convert/small.txt" t.txt
ln -f t.txt hard.txt
ln -sf t.txt soft.txt
cp t.txt keep.txt
for args in "-o t.txt" "-o hard.txt" "-o soft.txt" "--format perfetto -o t.txt" \
  "--gaps=t.txt" "--sqlite t.txt"; do
  # shellcheck disable=SC2086
  "$B/rtg-convert" -q $args t.txt 2>err
  echo "$args: exit $?, $(sed 's/.*error: //' err), trace $(cmp -s t.txt keep.txt && echo intact || echo DAMAGED)"
done
"$B/rtg-convert" -q -o out.json t.txt && echo "another output: written, trace $(cmp -s t.txt keep.txt && echo intact)"
