# No thread hop at completion when one signal counts many ops in flight
# (tp_wait b2b reuse: each thread submits its kernels back to back, all on
# one signal made with their count, then waits for it below 1): the ops
# after the first are timed through tool signals and forwarded to the
# program's signal (sigtrack.c), and the thread that waits completes each
# of them in its wait as it lands, instead of the queue's waiter thread at
# its next poll (200 us to 1 ms after the last kernel ended).  One thread
# on two queues, two threads on their own queues, four sharing one; each
# program thread completes 10 or more of its ops; nothing is lost or left
# unfinished, and the program's signal ends at 0 (the wait returns).
# Without interrupts (HSA_ENABLE_INTERRUPT=0: no signal has an event) no
# thread can block on a tool signal: the waiters complete the forwards and
# the wait returns once they did, with every op recorded.
. "$TOP/tests/e2e/02-tracer.inc"
export SIMGPU_KERNEL_NS=20000
for layout in 1t2q 2t 4t1q; do
  mkdir $layout && cd $layout
  traced "$PROGS/tp_wait" b2b $layout reuse 200 >out
  f=$(trace_of)
  total=$(grep -cE '^HSA: .* dispatch .* start:' "$f")
  least=""
  for t in $(sed -n 's/^tids //p' out); do
    n=$(grep -cE "^HSA: [^ ]* tid:$t dispatch .* start:" "$f")
    [ "$n" -ge 10 ] || least="$least tid $t completed only $n"
  done
  lost=$(summary "$f" | tr ' ' '\n' | grep -E '^(lost|lost_gpu|unfinished):' | tr '\n' ' ')
  echo "hsa b2b $layout reuse: $total ops; each thread completed 10 or more in its wait:${least:- yes}; $lost"
  cd ..
done
mkdir noint && cd noint
HSA_ENABLE_INTERRUPT=0 traced "$PROGS/tp_wait" b2b 1t2q reuse 200 >out
f=$(trace_of)
lost=$(summary "$f" | tr ' ' '\n' | grep -E '^(lost|lost_gpu|unfinished):' | tr '\n' ' ')
echo "hsa b2b 1t2q reuse without interrupts: $(grep -cE '^HSA: .* dispatch .* start:' "$f") ops; $lost"
cd ..
