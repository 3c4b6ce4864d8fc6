# Every output of rtg-convert is written under a temporary name beside its
# final one and renamed only when the whole run succeeds (issue 25,
# src/common/outfile.h): a run that fails leaves each existing output byte
# for byte and no temporary file, whatever made it fail (an input missing,
# an input that is not a trace, JSON that does not parse, a write error in
# another output, a full disk).  Two outputs on one path are refused (exit
# 2) before anything is touched.
export LC_ALL=C
C="$B/rtg-convert"
cp "$TOP/tests/data/convert/gen.txt" trace.txt
printf 'just some text\nno trace here\n' >notes.txt
printf '{"traceEvents":[{"ph":"X"' >cut.json
mkdir w
cd w || exit 1
for f in out.json out.pftrace gaps.txt out.rpd an.json r.html; do printf 'old %s\n' $f >$f; done
mkdir st csv o2
printf 'old stats\n' >st/kernel_stats.csv
printf 'mine\n' >st/mine.txt
printf 'old csv\n' >csv/mine.txt
printf 'old anchor\n' >o2/trace.otf2
snap() { find . -type f | sort | xargs sha256sum; find . | sort; }
snap >../before
ALL="-o out.json --gaps=gaps.txt --sqlite out.rpd --analyze=an.json --html r.html --stats=st --csv csv --otf2 o2"
check() { # DESCRIPTION ARGS...: exit status, whether every output was kept, messages
  what=$1
  shift
  "$C" "$@" >/dev/null 2>../err
  st=$?
  snap >../after
  if cmp -s ../before ../after; then kept="every output kept, no temporary file"; else kept="OUTPUTS CHANGED: $(diff ../before ../after | grep '^[<>]' | head -n 3 | tr '\n' ' ')"; fi
  echo "$what: exit $st, $kept"
  sed 's/^rtg-convert: //; s/error: /  error: /; s/warning: /  warning: /' ../err
}
# shellcheck disable=SC2086
{
  check "an input missing" ../trace.txt ../missing.txt $ALL
  check "an input that is not a trace" ../trace.txt ../notes.txt $ALL
  check "JSON that does not parse" ../trace.txt ../cut.json $ALL
  check "Perfetto, an input not a trace" ../trace.txt ../notes.txt -o out.pftrace
  check "a write error in one output (--gaps=/dev/full)" ../trace.txt $ALL --gaps=/dev/full
  check "-o X --sqlite X" ../trace.txt -o out.json --sqlite out.json
  check "-o X --html ./X" ../trace.txt -o out.json --html ./out.json
  check "--analyze=X --gaps=X" ../trace.txt --analyze=gaps.txt --gaps=gaps.txt
  check "--stats=D --csv D --html D" ../trace.txt --stats=st --csv st --html st
  check "-o X on a directory" ../trace.txt -o st
}
# the same outputs, from a good run: all replaced; other files in the
# directories stay; nothing temporary is left
# shellcheck disable=SC2086
"$C" -q ../trace.txt $ALL >/dev/null
echo "good run: exit $?"
for f in out.json gaps.txt out.rpd an.json r.html st/kernel_stats.csv o2/trace.otf2; do
  grep -q '^old' $f && echo "$f: NOT replaced"
done
echo "kept: $(cat st/mine.txt csv/mine.txt | tr '\n' ' ')"
echo "temporary files left: $(find . -name '.*rtg-*' | wc -l)"
"$C" -q ../trace.txt -o out.pftrace && echo "out.pftrace: $(head -c 4 out.pftrace | grep -c old) old"
# --stats=D --gaps=D/gaps.txt with D made by the run: the file moves with it
"$C" -q ../trace.txt --stats=new --gaps=new/gaps.txt >/dev/null
echo "--stats=new --gaps=new/gaps.txt: exit $?, $(ls new | tr '\n' ' ')"
# /dev/full: the reason is said
"$C" -q ../trace.txt -o /dev/full 2>&1 | sed 's/^rtg-convert: //'
# a file size limit (as a full disk: the write fails part way; SIGXFSZ
# ignored, so write() says EFBIG)
mkdir lim
printf 'old\n' >lim/out.json
(
  trap '' XFSZ
  ulimit -f 64
  "$C" -q ../trace.txt -o lim/out.json --csv lim/csv 2>&1 | sed 's/^rtg-convert: //'
)
echo "size limit: lim/out.json $(cat lim/out.json), files in lim: $(ls -A lim | tr '\n' ' ')"
# killed by SIGTERM while reading (an input that is a pipe nobody writes
# yet): the temporary files go, the old outputs stay
mkfifo ../pipe
"$C" -q ../pipe -o out.json --sqlite out.rpd --gaps=gaps.txt &
pid=$!
n=0
while [ "$(find . -maxdepth 1 -name '.*rtg-*' | wc -l)" -lt 3 ] && [ $n -lt 100 ]; do
  sleep 0.05
  n=$((n + 1))
done
snap >../before
kill -TERM $pid
wait $pid
st=$?
find . -maxdepth 1 -name '.*rtg-*' >../left
echo "SIGTERM while reading: exit $st, temporary files left: $(wc -l <../left)"
cp ../before ../b2
grep -v '\.rtg-' ../b2 >../before
snap >../after
cmp -s ../before ../after && echo "outputs kept" || echo "OUTPUTS CHANGED"
