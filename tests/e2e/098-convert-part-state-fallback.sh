# --merge --summary reads the records where the parts' state cannot give
# the same bytes, says why with -v, and gives the bytes of converting the
# files at once: a part of an older rtg-convert (no RTG-PART-STATE line),
# a part whose node read a file with a line skipped, an output beside
# --summary, a window, a trace beside the parts, one process in two
# parts.  A state whose tables are damaged: a warning, and the records
# read.  A damaged event: an error naming the part (exit 1), an existing
# --stats directory left as it was.
mk() { # FILE HOST PID BOOT0
  {
    echo "RTG: pid:$3 tid:$3 trace format:1 host:$2 clock:boottime boot_ns:$4 realtime_ns:$((1700000000000000 + $3)) realtime_err:10"
    echo "RTG: pid:$3 tid:$3 agent index:1 type:gpu name:'gfx90a'"
    i=1
    while [ $i -le 30 ]; do
      t=$(($4 + i * 100000))
      echo "HIP: pid:$3 tid:$3 hipLaunchKernel [k$((i % 3))] ret=0 @$t +$((500 + i * 7)) corr:$i"
      echo "HSA: pid:$3 tid:$3 dispatch queue:0 agent:1 signal:0 name:'k$((i % 3))' start:$((t + 1000)) stop:$((t + 1000 + i * 997)) id:$i corr:$i"
      i=$((i + 1))
    done
    echo "RTG: pid:$3 tid:$3 summary dispatches:30 barriers:0 copies:0 hsa_calls:0 hip_calls:30 lost:0 boot_ns:$(($4 + 9000000)) realtime_ns:$((1700000000000000 + $3 + 9000000 + $3 * 10)) realtime_err:10"
  } > "$1"
}
mk a.1 node-a 1 1000000000000
mk a.2 node-a 2 1000000000000
mk b.1 node-b 3 5000000000000
{ head -5 b.1; echo "HSA: pid:3 tid:3 dispatch queue:0 agent:1 broken"; tail -n +6 b.1; } > bad.1
C="$B/rtg-convert"
"$C" --part a.part a.1 a.2
"$C" --part b.part b.1
"$C" -v --part bad.part bad.1 2>&1 | sed 's/, [0-9]* bytes/, N bytes/'
# a part as rtg-convert wrote it before the state: the files, their index
old() { # PART FILES...
  out=$1
  shift
  printf 'RTG-PART 1 (rtg-convert --part: trace files packed; rtg-convert --merge reads them)\n' > "$out"
  : > idx
  for f in "$@"; do
    echo "RTG-PART-FILE offset:$(wc -c < "$out") size:$(wc -c < "$f") path:$f" >> idx
    cat "$f" >> "$out"
  done
  at=$(wc -c < "$out")
  cat idx >> "$out"
  echo "RTG-PART-INDEX offset:$at files:$#" >> "$out"
}
old old.part a.1 a.2
same() { # NAME FILES -- PARTS OPTIONS...: all at once and merged, the same?
  name=$1 files=$2 parts=$3
  shift 3
  "$C" "$@" $files > a.out 2> a.err
  ea=$?
  "$C" -v --merge "$@" $parts > m.out 2> m.err
  em=$?
  "$C" --merge "$@" $parts > m.out 2> /dev/null
  grep -o 'merge: reading every record: .*\|the parts. state: [0-9]* events' m.err | sed 's/^/  /'
  cmp -s a.out m.out && echo "$name: exit $ea and $em, the same bytes" || echo "$name: exit $ea and $em, DIFFERENT"
}
same "state" "a.1 a.2 b.1" "a.part b.part" --summary
cp a.out summary.all
same "older part" "a.1 a.2 b.1" "old.part b.part" --summary
same "a line skipped on a node" "a.1 a.2 bad.1" "a.part bad.part" --summary
same "JSON beside" "a.1 a.2 b.1" "a.part b.part" --summary -o x.json
same "a window" "a.1 a.2 b.1" "a.part b.part" --summary --start 10%
same "a trace beside" "a.1 a.2 b.1" "a.part b.1" --summary
"$C" --part a1.part a.1
same "a process in two parts" "a.1 a.2 a.1" "a.part a1.part" --summary
"$C" -q --stats=a.st a.1 a.2 b.1
"$C" -q --merge --stats=m.st old.part b.part
diff -r a.st m.st > /dev/null && echo "--stats, older part: the same bytes"
# damaged states: the events' count, an event's kind, the tables cut
mkdir keep && echo old > keep/kernel_stats.csv
sed 's/^\(RTG-PART-STATE .* events:\)\([0-9]*\)/\1999/' a.part > count.part
off=$(sed -n 's/^RTG-PART-STATE version:1 offset:\([0-9]*\) .*/\1/p' a.part)
cp a.part kind.part && printf '\177' | dd of=kind.part bs=1 seek="$off" conv=notrunc 2> /dev/null
size=$(sed -n 's/^RTG-PART-STATE .* size:\([0-9]*\) .*/\1/p' a.part)
sed "s/^\(RTG-PART-STATE .* size:\)[0-9]*/\1$((size - 5))/" a.part > size.part
"$C" -q --merge --stats=keep kind.part b.part > /dev/null 2> err
echo "kind: exit $?: $(sed 's/byte [0-9]*/byte N/' err | tr '\n' ' ')"
cat keep/kernel_stats.csv
for p in size count; do
  "$C" --merge --summary $p.part b.part > m.out 2> err
  echo "$p: exit $?: $(sed 's/byte [0-9]*/byte N/' err | tr '\n' ' ')"
  cmp -s m.out summary.all && echo "$p: the records read, the same bytes"
done
