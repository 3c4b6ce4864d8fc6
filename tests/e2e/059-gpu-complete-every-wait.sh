# No thread hop at completion, on every way a program waits (the cells of
# make bench-stretch): each op the program waits for is completed by the
# thread that waits, inside its wait, and returns to it from there.  HSA
# (tests/progs/tp_wait): hsa_signal_wait_scacquire and _relaxed, blocked
# and active, a hsa_signal_load_scacquire loop and hsa_amd_signal_wait_any,
# with a fresh signal per kernel or one reused and set back to 1 by the
# program, one thread on two queues; the reused signal also with two
# threads on their own queues and four sharing one; and an async handler,
# whose op the runtime's handler thread completes (the thread that runs the
# program's handler).  HIP (tests/progs/tp_hip_wait): hipStreamSynchronize,
# hipEventSynchronize, hipDeviceSynchronize, a synchronous hipMemcpy and a
# hipEventQuery loop: HIP registers a handler of its own on each marker, so
# its markers are completed on the hardware's decrement by the waiting
# thread or by the runtime's handler thread, whichever claims first (on
# HIP 6.4 the handler thread, spinning after each wake-up, often claims
# most: 45 of 50 of hipDeviceSynchronize's, 95 of 102 of
# hipStreamSynchronize's in one run), never by the queue's waiter thread,
# 200 us to 1 ms later.  The queues' waiter threads complete an op when their poll sees
# the hardware's decrement first, which on a loaded machine (the waiting
# thread off its core) can be many: 10 of each run's ops show the mechanism
# works, as in 050.  Nothing is lost or left unfinished.
. "$TOP/tests/e2e/02-tracer.inc"
export SIMGPU_KERNEL_NS=20000
# ops FILE TIDS: GPU records in FILE, and those completed by threads TIDS
ops() {
  total=$(grep -cE '^HSA: .* (dispatch|barrier|copy) .* start:' "$1")
  mine=0
  for t in $2; do
    mine=$((mine + $(grep -cE "^HSA: [^ ]* tid:$t (dispatch|barrier|copy) .* start:" "$1")))
  done
  echo "$total $mine"
}
# check LABEL FILE TIDS [LEAST]: a line for the cell (the threads completed
# LEAST (10) or more of the ops), and the summary's losses
check() {
  set -- "$1" "$2" "$3" "${4:-10}" $(ops "$2" "$3")
  lost=$(summary "$2" | tr ' ' '\n' | grep -E '^(lost|lost_gpu|unfinished):' | tr '\n' ' ')
  echo "$1: completed in its own wait: $([ "$6" -ge "$4" ] && echo "$4 or more" || echo "only $6 of $5"); $lost"
}
for sig in fresh reuse; do
  for wait in scacquire-blocked scacquire-active relaxed-blocked relaxed-active poll any; do
    mkdir "$wait-$sig" && cd "$wait-$sig"
    traced "$PROGS/tp_wait" $wait 1t2q $sig 100 >out
    check "hsa $wait 1t2q $sig" "$(trace_of)" "$(sed -n 's/^tids //p' out)"
    cd ..
  done
done
for layout in 2t 4t1q; do
  mkdir $layout && cd $layout
  traced "$PROGS/tp_wait" scacquire-blocked $layout reuse 50 >out
  check "hsa scacquire-blocked $layout reuse" "$(trace_of)" "$(sed -n 's/^tids //p' out)" 20
  cd ..
done
for sig in fresh reuse; do
  mkdir handler-$sig && cd handler-$sig
  traced "$PROGS/tp_wait" handler 1t2q $sig 100 >out
  check "hsa handler 1t2q $sig (the handlers' thread)" "$(trace_of)" "$(sed -n 's/^handler_tid //p' out)"
  cd ..
done
for wait in stream event device memcpy query; do
  mkdir hip-$wait && cd hip-$wait
  traced "$PROGS/tp_hip_wait" $wait 1t2s 50 >out
  check "hip $wait 1t2s (or the handlers' thread)" "$(trace_of)" \
    "$(sed -n 's/^tids //p' out) $(sed -n 's/^handler_tid //p' out)"
  cd ..
done
