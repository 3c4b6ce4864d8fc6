# API call times from the TSC (core/stamp.c) are CLOCK_BOOTTIME times: 200
# hsa_signal_load_relaxed calls, 0.3-3 ms apart, each read around by the
# application's own clock_gettime(CLOCK_BOOTTIME): every record lies in its
# call's window, within 1 us with TSC stamps (their conversion's error is
# nanoseconds; a wrong slope or point would be off by far more), and
# exactly with RTG_TSC=0 (stamps are clock reads).  Whether this machine
# allows TSC stamps is not printed: both kinds must pass the same check.
# (RTG_HSA_POLL=each: a record a call.)  The same calls coalesced into one
# record (the default): its first and last call's times lie in the windows
# of the first and the last call.
. "$TOP/tests/e2e/02-tracer.inc"
for mode in default 0; do
  rm -f rtg_trace.txt.*
  if [ $mode = default ]; then
    slack=1000
    RTG_HSA_POLL=each RTG_HSA_API_FILTER=hsa_signal_load_relaxed traced "$PROGS/tp_bench" stamps 200 >calls
  else
    slack=0
    RTG_TSC=0 RTG_HSA_POLL=each RTG_HSA_API_FILTER=hsa_signal_load_relaxed traced "$PROGS/tp_bench" stamps 200 >calls
  fi
  grep '^HSA: .* hsa_signal_load_relaxed ' "$(trace_of)" | sed 's/.* @\([0-9]*\) +\([0-9]*\).*/\1 \2/' >recs
  echo "RTG_TSC=$mode: $(paste -d' ' calls recs | awk -v s=$slack '
    $1 == "call" && NF == 5 { n++; if ($4 + s >= $2 && $4 + $5 <= $3 + s) ok++ }
    END { printf "%d of %d calls recorded inside the window the application saw", ok, n }')"
done
rm -f rtg_trace.txt.*
RTG_HSA_API_FILTER=hsa_signal_load_relaxed traced "$PROGS/tp_bench" stamps 200 >calls
r=$(grep '^HSA: .* hsa_signal_load_relaxed ' "$(trace_of)")
echo "coalesced: $(echo "$r" | wc -l) record of $(val "$r" polls) calls, $(
  { grep '^call ' calls | sed -n '1p;$p'; echo "$r" | sed 's/.* @\([0-9]*\) +\([0-9]*\) .* last:\([0-9]*\) last_dur:\([0-9]*\).*/\1 \2 \3 \4/'; } |
  awk 'NR == 1 { b1 = $2; a1 = $3 } NR == 2 { b2 = $2; a2 = $3 }
    NR == 3 { ok = $1 + 1000 >= b1 && $1 + $2 <= a1 + 1000 && $3 + 1000 >= b2 && $3 + $4 <= a2 + 1000 }
    END { print (ok ? "first and last inside their windows" : "NOT inside the windows") }')"
