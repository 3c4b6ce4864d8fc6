# HSA shut down, then initialised again in a forked child and in the
# parent (RCCL's test bed on trixie does the first): each new life writes
# a trace of its own (the parent's second as rtg_trace.txt.exec1.<pid>),
# each with its dispatches and its summary (before: the child's trace had
# no summary; with the waiters of the first trace's end still abandoning
# ops, a new life's second dispatch never completed).
# Untraced first, on every suite: ROCR >= 6.3 (sid, experimental) opens
# KFD again at the parent's second hsa_init only if its shutdown disabled
# the runtime with KFD (simgpu's AMDKFD_IOC_RUNTIME_ENABLE).
. "$TOP/tests/e2e/02-tracer.inc"
"$PROGS/tp_fork" 3 shutdown >plain.out 2>&1 || echo "untraced: exit $?: $(grep -m1 failed plain.out)"
traced "$PROGS/tp_fork" 3 shutdown
ls rtg_trace.txt.* | wc -l
for f in rtg_trace.txt.*; do
  printf '%s summaries: %s, dispatch records: %s, ' "$(echo "$f" | sed 's/[0-9]*$/PID/')" \
    "$(grep -c '^RTG: .* summary ' "$f")" "$(grep -c '^HSA: .* dispatch ' "$f")"
  printf '%s, ' "$(grep -o ' unfinished:[0-9]*' "$f")"
  summary "$f" | sed 's/ hsa_calls.*//'
done | sort
