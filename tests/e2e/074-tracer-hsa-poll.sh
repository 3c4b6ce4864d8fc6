# Repeated HSA calls (RTG_HSA_POLL, default coalesce): tp_poll spins as a
# HIP >= 6 runtime does (100000 hsa_signal_load_relaxed while a 400 ms
# kernel runs, hsa_signal_wait_scacquire with a 100 us timeout until it is
# done, 500 queue index loads, 300 loads as the process's last HSA calls),
# beside a thread that loads another signal 1000 times and exits and one
# that loads a third 777 times and blocks until the process exits.  For
# each (function, first argument) the polls: of its records add up to
# exactly the calls the program made: nothing is lost where a run of calls
# ends (another record of the thread, the dispatch record its wait
# completes, the thread's exit, the process's exit, a thread blocked at
# exit).  The trace has far fewer lines than calls; the summary, --stats
# and the JSON count every call; RTG_HSA_POLL=each writes one record a
# call; a bad value is refused with a message.
. "$TOP/tests/e2e/02-tracer.inc"
export SIMGPU_KERNEL_NS=400000000
N=100000
# calls_in TRACE: "FUNCTION ARG=VALUE CALLS RECORDS" per function and first
# argument, from the records (polls:N, else 1)
calls_in() {
  awk '$1 == "HSA:" && $4 ~ /^hsa_/ {
      a = $5; gsub(/[(),]/, "", a); n = 1
      for (i = 6; i <= NF; i++) if ($i ~ /^polls:/) n = substr($i, 7)
      calls[$4 " " a] += n; recs[$4 " " a]++ }
    END { for (k in calls) print k, calls[k], recs[k] }' "$1"
}
# check PROG_OUT TRACE: each line the program printed against the trace:
# the calls the records add up to (the waits' number varies: "M"), and
# how many records (each: whether one a call)
check() {
  calls_in "$2" >calls
  grep '^calls ' "$1" | while read -r _ fn arg want; do
    got=$(awk -v k="$fn $arg" '$1 " " $2 == k { print $3, $4 }' calls)
    n=${got% *} recs=${got#* }
    [ "$fn" = hsa_signal_wait_scacquire ] && shown=M || shown=$want
    [ "$n" = "$want" ] && n="all $shown" || n="WRONG: $n of $want"
    [ "$3" = each ] && recs=$([ "$recs" = "$want" ] && echo "one a call" || echo "WRONG: $recs")
    echo "$fn: calls $n, records $recs"
  done
}

echo "-- default (coalesce)"
rm -f rtg_trace.txt.*
RTG_HSA_API_FILTER=all traced "$PROGS/tp_poll" $N >out
f=$(trace_of)
grep '^timed out' out
check out "$f"
lines=$(wc -l <"$f")
total=$(awk '$1 == "HSA:" && $4 ~ /^hsa_/ { n = 1; for (i = 6; i <= NF; i++) if ($i ~ /^polls:/) n = substr($i, 7); s += n } END { print s }' "$f")
echo "trace lines below $((N / 100)): $([ "$lines" -lt $((N / 100)) ] && echo yes || echo "no ($lines)")"
echo "summary hsa_calls = calls in the records: $([ "$(val " $(summary "$f")" hsa_calls)" = "$total" ] && echo yes || echo no)"
loads=$(awk '$2 == "hsa_signal_load_relaxed" { s += $4 } END { print s }' out)
"$B/rtg-convert" -q --stats=st -o out.json "$f"
echo "--stats hsa_signal_load_relaxed calls = the program's loads: $([ "$(awk -F, '$1 == "\"hsa_signal_load_relaxed\"" { print $2 }' st/hsa_api_stats.csv)" = "$loads" ] && echo yes || echo no)"
# a record's time: busy: (repeated calls), else its +DUR
busy=$(awk '$1 == "HSA:" && $4 == "hsa_signal_load_relaxed" { b = ""
    for (i = 6; i <= NF; i++) { if ($i ~ /^busy:/) b = substr($i, 6); if ($i ~ /^\+/) d = substr($i, 2) }
    s += (b != "" ? b : d) } END { print s }' "$f")
echo "--stats total duration = sum of busy: $([ "$(awk -F, '$1 == "\"hsa_signal_load_relaxed\"" { print $3 }' st/hsa_api_stats.csv)" = "$busy" ] && echo yes || echo no)"
python3 - out.json "$loads" <<'EOF'
import json, sys
ev = [e for e in json.load(open(sys.argv[1]))["traceEvents"] if e.get("name") == "hsa_signal_load_relaxed"]
calls = sum(e["args"].get("polls", 1) for e in ev)
print("JSON: %d slices, polls add up to the loads: %s, each with busy <= dur: %s" % (
    len(ev), "yes" if calls == int(sys.argv[2]) else "no (%d)" % calls,
    "yes" if all(e["args"]["busy"] <= e["dur"] * 1000 + 1 for e in ev if "polls" in e["args"]) else "no"))
EOF

. "$TOP/tests/e2e/12-perfetto.inc"
pf_check "$f" >pf.out && echo "Perfetto: the JSON's slices and arguments: yes" || cat pf.out
"$B/rtg-convert" -q --sqlite out.db "$f"
sqlite3 out.db "select count(*), sum(cast(substr(args, instr(args, 'polls:') + 6) as integer))
  from api where apiName = 'hsa_signal_load_relaxed' and args like '% polls:%'" |
  awk -F'|' -v want="$loads" '{ print "RPD: " $1 " rows of repeated loads, their polls add up to the loads: " ($2 == want ? "yes" : "no (" $2 ")") }'

echo "-- RTG_HSA_POLL=each"
rm -f rtg_trace.txt.*
RTG_HSA_POLL=each RTG_HSA_API_FILTER=all traced "$PROGS/tp_poll" $N >out
f=$(trace_of)
check out "$f" each
echo "records with polls: $(grep -c ' polls:' "$f")"

echo "-- RTG_HSA_POLL=sometimes"
rm -f rtg_trace.txt.*
RTG_HSA_POLL=sometimes RTG_HSA_API_FILTER=hsa_signal_load traced "$PROGS/tp_poll" 1000 2>err >out
cat err
echo "coalesced as by default: $([ "$(grep -c ' polls:' "$(trace_of)")" -gt 0 ] && echo yes || echo no)"
