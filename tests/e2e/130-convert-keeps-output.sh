# An input that cannot be read (a typo, a directory, no permission) is
# reported by name before any output is opened: the existing outputs stay
# as they were and the exit status is 1 (issue 25: a typo used to empty
# out.json).  So does an output that cannot be created.
C="$B/rtg-convert"
cp "$TOP/tests/data/convert/gen.txt" trace.txt
printf '{"kept":1}\n' >out.json
printf 'db kept\n' >kept.db
cp out.json out.orig
cp kept.db kept.orig
mkdir adir
check() {
  "$C" "$@" 2>err >/dev/null
  echo "$*: exit $?, $(cmp -s out.json out.orig && cmp -s kept.db kept.orig && echo outputs kept || echo OUTPUTS CHANGED)"
  sed 's/^rtg-convert: //' err
}
check missing.txt
check trace.txt missing.txt -o out.json --sqlite kept.db
check adir -o out.json
# an output that cannot be created, named last: the others stay too
check trace.txt -o out.json --analyze=no/dir/a.json
# the same inputs, readable: written
"$C" trace.txt -o out.json 2>/dev/null
echo "readable: exit $?, $(cmp -s out.json out.orig && echo not written || echo written)"
