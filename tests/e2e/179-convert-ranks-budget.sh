# The GPU gap trackers of a report share a budget of held ops: over it,
# the tracker that waited longest for an op (a rank whose file was read)
# sweeps what it holds and frees it, so memory stays bounded with the
# number of ranks.  16 ranks of 3000 records (about 2500 held ops each):
# with a budget of 8000 (trackers of earlier ranks swept while later
# ranks are read) every report built on them is the same bytes as with
# the default budget (nothing swept early): --summary, --stats, --gaps,
# --sqlite, -g's gap slices, --analyze.
cc -O2 -I"$TOP/include" -I"$TOP/src/common" -o gen "$TOP/scripts/bench-convert-gen.c" "$TOP/src/common/record.c" || exit 1
mkdir r && ./gen ranks r 16 2 3000 || exit 1
conv() { # DIR [budget]
  mkdir "$1"
  (cd "$1" && RTG_CONVERT_GAP_BUDGET=${2:-} "$B/rtg-convert" -q --summary --stats=. --gaps=gaps.txt \
    --sqlite r.db -g -o r.json --analyze=an.json ../r/* > summary.txt)
  echo "$1: exit $?, $(ls "$1" | wc -l) files"
}
conv default
conv small 8000
diff -r default small > /dev/null && echo "budget 8000: the same bytes"
grep -c '^  *[0-9.]*%' default/summary.txt
# (below one rank's held ops the ranks being read are swept too, and their
# late ops clamped: the budget is in force)
conv tiny 500
diff -r default tiny > /dev/null && echo "budget 500: the same?" || echo "budget 500: different, as expected"
