# Every fuzz target replays its seed corpus and every past crash
# (tests/data/fuzz/<target>/) without crashing.
for r in "$B"/fuzz/replay_*; do
  t=${r##*/replay_}
  n=$(ls "$TOP/tests/data/fuzz/$t" | wc -l)
  "$r" "$TOP/tests/data/fuzz/$t" >/dev/null || { echo "$t: replay failed"; continue; }
  [ "$n" -gt 0 ] && echo "$t: ok"
done
