# A job of 4 nodes converted per node: each node packs its traces into one
# part (--part), one step converts the parts (--merge).  16 ranks on 8
# hosts (2 hosts a node, boot clocks minutes apart, clock pairs), written
# by the benchmark's generator.  Every output of --merge is the same bytes
# as converting the 16 files at once in the same order: Chrome JSON (with
# arrows and kernel names), Perfetto, --summary, --stats, --gaps,
# --analyze (text and JSON), --html, --sqlite, --csv, -w, -v's host
# offsets and line counts; OTF2's events and definitions (its anchor file
# holds the time it was written).  --summary and --stats come from the
# parts' state (the records unread), the others from the records.
cc -O2 -I"$TOP/include" -I"$TOP/src/common" -o gen "$TOP/scripts/bench-convert-gen.c" "$TOP/src/common/record.c" || exit 1
mkdir r && ./gen ranks r 16 8 1500 || exit 1
C="$B/rtg-convert"
for n in 0 1 2 3; do
  ls r | grep -E "node($n|$((n + 4)))\." | sort -t. -k4 -n | sed 's|^|r/|' > list.$n
  "$C" --part node$n.part $(cat list.$n)
  echo "part $n exit $? files $(wc -l < list.$n)"
done
all=$(cat list.0 list.1 list.2 list.3)
both() { # NAME OPTIONS...: all at once as a.NAME, merged as m.NAME
  name=$1
  shift
  (mkdir a.$name && cd a.$name && "$C" "$@" $(for f in $all; do echo "../$f"; done) > stdout 2> ../a.$name.err)
  a=$?
  (mkdir m.$name && cd m.$name && "$C" --merge "$@" ../node0.part ../node1.part ../node2.part ../node3.part > stdout 2> ../m.$name.err)
  echo "$name: exit $a and $?, messages: $(cat a.$name.err m.$name.err | wc -l)"
  rm -f a.$name/otf2/trace.otf2 m.$name/otf2/trace.otf2 # (the time it was written)
  [ -s a.$name/stdout ] || rm a.$name/stdout m.$name/stdout
  diff -r a.$name m.$name > /dev/null && echo "$name: the same bytes, $(find a.$name -type f | wc -l) files" || { echo "$name: DIFFERENT"; diff -r a.$name m.$name | head -5; }
}
both json -f -k -o out.json
both perfetto -o out.pftrace
both summary --summary
both stats --stats=st
both gaps --gaps
both analyze --analyze=an.json
both html --html r.html
both sqlite --sqlite r.db
both csv --csv csv
both otf2 --otf2 otf2
both w -w
both v -v -o /dev/null
grep -c '^  host node' a.v/stdout
# the parts hold the files as they were, and an index at the end
head -c 10 node0.part; echo
tail -n 6 node0.part | awk '$1 == "RTG-PART-STATE" { print $1, $6, $7; next } $1 == "RTG-PART-FILE" { print $1, $4; next } { print $1 }'
"$C" -q --merge -o - node2.part | cmp -s - a.json/out.json && echo "node 2 alone: the same?" || echo "node 2 alone: not the whole job"
