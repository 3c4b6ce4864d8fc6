#!/bin/sh
# Generates the broken inputs of tests/data/broken/cases.txt from the two
# good ones committed here (base.txt: an rtg trace of examples/hip_streams on
# simgpu, 172 lines; tests/data/rpt/seed002.log: an HCC_PROFILE=2 log, 168
# lines), so megabytes need not be committed.  Deterministic: no clock, no
# randomness.   gen.sh OUTDIR
set -e
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
out=$1
mkdir -p "$out"
T=$here/base.txt
P=$here/../rpt/seed002.log

# binary: 64 KB of every byte value, NULs included
binary() { awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) printf "%c", (i * 7919 + 13) % 255 + 1 }' | tr '\001' '\000'; }
# huge: one line of $1 bytes
huge() { head -c "$1" /dev/zero | tr '\000' x; }

for kind in trace profile; do
  if [ $kind = trace ]; then src=$T; else src=$P; fi
  d=$out/$kind
  mkdir -p "$d"
  n=$(wc -l <"$src")
  size=$(wc -c <"$src")
  head -c $((size / 2 + 17)) "$src" >"$d/truncated-mid-line"
  head -n $((n / 2)) "$src" >"$d/truncated-half"
  head -n 1 "$src" >"$d/truncated-first-line"
  head -c $((size - 1)) "$src" >"$d/no-final-newline"
  # every 7th line gets 10 bytes overwritten from column 20
  awk 'NR % 7 == 0 && length($0) > 30 { $0 = substr($0, 1, 19) "#@!~%^&*()" substr($0, 30) } { print }' "$src" >"$d/corrupted"
  # every 5th line loses its second half
  awk 'NR % 5 == 0 { $0 = substr($0, 1, int(length($0) / 2)) } { print }' "$src" >"$d/cut-lines"
  binary 65536 >"$d/binary"
  { head -n $((n / 2)) "$src"; binary 4096; echo; tail -n $((n - n / 2)) "$src"; } >"$d/binary-middle"
  { head -n $((n / 2)) "$src"; huge 3000000; echo; tail -n $((n - n / 2)) "$src"; } >"$d/huge-line"
  { cat "$src"; huge 2000000; } >"$d/huge-last-line"
  # NUL bytes inside every 10th line
  awk 'NR % 10 == 0 { $0 = substr($0, 1, 12) "\001" substr($0, 13) } { print }' "$src" | tr '\001' '\000' >"$d/nul-bytes"
  # Latin-1 and invalid UTF-8 in names (after name:' or in profile names)
  sed "s/name:'/name:'\\xe9t\\xe9\\xff\\xfe/; s/^\\(profile: *[a-z]*;[ \\t]*\\)/\\1\\xc0\\xaf\\xe9/" "$src" >"$d/non-utf8"
  tac "$src" >"$d/reversed"
  awk '{ print (NR * 7919) % 173, $0 }' "$src" | sort -n -s -k1,1 | cut -d' ' -f2- >"$d/shuffled"
  cat "$src" "$src" >"$d/duplicated"
  sed 's/$/\r/' "$src" >"$d/crlf"
  : >"$d/empty"
  printf '\n\n   \n\t\n' >"$d/blank"
  cp "$src" "$d/good"
  cp "$src" "$d/copy" # another file with the same contents
done
mkdir -p "$out/dir"

# Chrome JSON to merge: chrome.json (10 events, 9 of them non-empty) cut,
# without its array, with junk elements, nested too deep for any parser
j=$out/json
mkdir -p "$j"
head -c 400 "$here/chrome.json" >"$j/truncated.json"
printf '{"displayTimeUnit":"ns","traceEvents":{"ph":"X"}}\n' >"$j/no-events.json"
printf '[1, "two", null, true, [], {}, {"ph":"X","name":"ok","pid":1,"tid":1,"ts":5,"dur":1}, {"ts":"NaN"}, {"ts":-5,"ph":"i"}, {"ts":1e300,"ph":"i"}]\n' >"$j/junk-events.json"
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "["; for (i = 0; i < 100000; i++) printf "]"; print "" }' >"$j/deep.json"
{ printf '{"traceEvents":['; binary 2000; printf ']}'; } >"$j/binary.json"
printf '   \n\t[]' >"$j/empty-array.json"
