# Cooperative queues (HSA_QUEUE_TYPE_COOPERATIVE, which HIP creates on each
# device): ROCR hands every cooperative create on a GPU the same queue and
# counts its references; its GPU agent deletes that queue itself (when the
# last reference goes, or at hsa_shut_down).  Traced on two GPUs, the
# program must exit as it does untraced (rocFFT's 2-GPU tests died with
# SIGSEGV in hsa_shut_down when each cooperative create became an intercept
# queue that deleted the shared queue at its destroy), see the same queue
# for each create, and have every dispatch traced.
. "$TOP/tests/e2e/02-tracer.inc"
export SIMGPU_GPUS=2
# coop N ROUNDS: tp_coop untraced and traced
coop() {
  echo "== $1 per GPU, $2 rounds"
  rm -f rtg_trace.txt.*
  timeout 60 "$PROGS/tp_coop" "$@" >plain.out 2>plain.err
  echo "untraced: exit $?"
  HSA_TOOLS_LIB="$TRACER" timeout 60 "$PROGS/tp_coop" "$@" >traced.out 2>err.txt
  echo "traced: exit $?"
  cmp -s plain.out traced.out && echo "application output unchanged" || diff plain.out traced.out
  cat plain.out
  f=$(trace_of)
  echo "dispatches traced: $(grep -c '^HSA: .* dispatch .* start:' "$f")"
  summary "$f" | tr ' ' '\n' | grep -E '^(dispatches|lost|unfinished):'
}
# HIP's way: one per GPU, destroyed at exit (the SIGSEGV in hsa_shut_down)
coop 1 1
# several creates at once, and again after the last destroy
coop 2 2
