# Duplicates, found as rtg-convert finds them: the same file given twice is
# read once (warned about, with the count of its lines); a trace
# concatenated with itself, or a copy of it, is read once (its header record
# again starts a run of duplicates: every record of that pid up to its next,
# different header is skipped and counted, warned once).  The report, -t
# included, is the one of a single copy; exit status 0.  A legacy log has no
# header: only the same file twice is caught.
D=$TOP/tests/data/rpt
R=$B/rpt
T=$D/rtg_trace.txt.1000
U=$D/rtg_trace.txt.1001
check() { # NAME REFERENCE ARGS...: exit status, the report against REFERENCE, stderr
  name=$1 ref=$2
  shift 2
  "$R" -t "$@" >out.txt 2>err.txt
  st=$?
  if cmp -s "$ref" out.txt; then same="the same"; else same="NOT the same"; fi
  echo "== $name: exit=$st, report $same as once"
  sed "s|$D/||g" err.txt
}
"$R" -t "$T" >once.txt 2>&1
cat "$T" "$U" >both.txt
"$R" -t both.txt >both-once.txt 2>&1
"$R" -t "$D/app.log" >log.txt 2>&1
check "a trace given twice" once.txt "$T" "$T"
cat "$T" "$T" >twice.txt
check "a trace concatenated with itself" once.txt twice.txt
cp "$T" copy.txt
check "a copy of the trace" once.txt "$T" copy.txt
check "the trace on stdin too" once.txt "$T" - <"$T"
cat "$T" "$T" "$T" >thrice.txt
check "three times in one file, then the file" once.txt thrice.txt "$T"
cat "$T" "$U" "$T" "$U" >both-twice.txt
check "two traces concatenated, twice" both-once.txt both-twice.txt
check "a legacy log given twice" log.txt "$D/app.log" "$D/app.log"
calls() { # commands per resource (the Calls of the rows that are not gaps)
  awk '/^Resource=/ { split($1, a, "="); res = a[2]; order[++n] = res; next }
    res != "" && $1 ~ /%$/ && $7 != "gap" { c[res] += $3 }
    END { for (i = 1; i <= n; i++) printf "%s%s %d", (i > 1 ? " " : ""), order[i], c[order[i]]; print "" }'
}
echo "== a legacy log concatenated with itself: not caught (no header)"
cat "$D/app.log" "$D/app.log" >log-twice.txt
"$R" "$D/app.log" | calls
"$R" log-twice.txt | calls
# an HCC_PROFILE=2 trace: a header, then profile: lines (of the pid of the
# record before them)
{
  echo "RTG: pid:5 tid:5 trace format:1 host:node1 clock:boottime boot_ns:10 realtime_ns:20"
  printf 'profile:  kernel;\t%40s;\t   1.0 us;\t1000;\t2000;\t#0.0.1;\n' k.kd
  echo "app text"
  printf 'profile:  kernel;\t%40s;\t   2.0 us;\t5000;\t7000;\t#0.0.2;\n' k.kd
  echo "RTG: pid:5 tid:5 summary dispatches:2 barriers:0 copies:0 hsa_calls:0 hip_calls:0 lost:0"
} >hcc.txt
"$R" -t hcc.txt >hcc-once.txt 2>&1
cat hcc.txt hcc.txt >hcc-twice.txt
check "an HCC_PROFILE=2 trace concatenated with itself" hcc-once.txt hcc-twice.txt
