# Trace health (issue 25): rtg-convert counts the records of each process
# of each input file against the summary record the tracer writes at exit
# (include/rtg/FORMAT.md) and says in one warning line per file what is
# wrong: no summary (the process was killed), fewer records than the
# summary counts (a full disk), lost, unfinished or unwritten records, HIP
# calls that went around the tracer.  The outputs are written; --strict
# makes it exit 1.  A file without a single trace line (a rocprof CSV, plain
# text) is not a trace: an error, exit 1 with or without --strict, and no
# output is written (an existing --analyze=FILE stays as it was).
export LC_ALL=C
C="$B/rtg-convert"
T="$TOP/tests/data/broken/base.txt" # 172 lines, the summary last
S=$(tail -n 1 "$T")
head -n 171 "$T" >killed.txt
{ head -n 100 "$T"; echo "$S"; } >short.txt
sed '$ s/lost:0 /lost:5 /; $ s/unfinished:0/unfinished:2/; $ s/write_errors:0/write_errors:3/; $ s/$/ hip_missed_until:123456/' "$T" >flags.txt
{ cat killed.txt; sed 's/pid:16834/pid:777/g' "$T"; } >two.txt
# whole traces in another order: records before the header and the summary count too
tac "$T" >reversed.txt
awk '{ print (NR * 7919) % 173, $0 }' "$T" | sort -n -s -k1,1 | cut -d' ' -f2- >shuffled.txt
cp "$TOP/tests/data/convert/rocprofv3-csv/node1/100_kernel_trace.csv" rocprof.csv
printf 'Hello from the application\nresult: 42\n' >app.txt
printf '{"kept":1}\n' >a.json
cp a.json a.orig
run() { # ARGS...: the exit status, whether out.json was written, the messages
  rm -f out.json
  "$C" "$@" -o out.json >/dev/null 2>err
  echo "$*: exit $?, $([ -s out.json ] && echo out.json written || echo no out.json)"
  sed 's/^/  /' err
}
for f in "$T" reversed.txt shuffled.txt killed.txt short.txt flags.txt two.txt; do
  run "$f"
  run --strict "$f"
done 2>&1 | sed "s|$T|base.txt|g"
run -q --strict killed.txt
# legacy inputs have no summary to check: no warning
run "$TOP/tests/data/rpt/seed002.log" 2>&1 | sed "s|$TOP/||g"
run "$TOP/tests/data/convert/hcc_strace.txt" 2>&1 | sed "s|$TOP/||g"
# not a trace
check_nt() { # ARGS...: exit, the --analyze file kept or not, messages
  "$C" "$@" --analyze=a.json >/dev/null 2>err
  echo "$*: exit $?, a.json $(cmp -s a.json a.orig && echo kept || echo CHANGED)"
  sed 's/^/  /' err
}
check_nt rocprof.csv
check_nt --strict rocprof.csv
check_nt app.txt
check_nt --strict "$T" app.txt 2>&1 | sed "s|$T|base.txt|g"
printf 'plain text on stdin\n' | check_nt -
