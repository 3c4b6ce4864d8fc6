# No thread hop at completion when one signal counts many ops in flight
# (tp_wait b2b reuse: each thread submits its kernels back to back, all on
# one signal made with their count, then waits for it below 1): the ops
# after the first are timed through tool signals and forwarded to the
# program's signal (sigtrack.c); the thread that waits blocks on the newest
# forward of each queue and completes what landed when it wakes, so the op
# its wait returns on, the last of its count to end, is completed by that
# thread in its wait (the record's tid, and waiter: the same), not by the
# queue's waiter thread at its next poll (200 us to 1 ms after the last
# kernel ended).  60 kernels per thread: all its forwards are among those
# the waiting thread holds from its first look (63), which their waiters
# leave to it.  One thread on two queues, two threads on their own queues,
# four sharing one; nothing is lost or left unfinished, and the program's
# signal ends at 0 (the wait returns).  A count none of whose ops its
# thread completed is not judged: on a loaded machine that thread may
# have been off its core until all of them had landed.
# Without interrupts (HSA_ENABLE_INTERRUPT=0: no signal has an event) no
# thread can block on a tool signal: the waiters complete the forwards and
# the wait returns once they did, with every op recorded.
. "$TOP/tests/e2e/02-tracer.inc"
export SIMGPU_KERNEL_NS=1000000
for layout in 1t2q 2t 4t1q; do
  mkdir $layout && cd $layout
  traced "$PROGS/tp_wait" b2b $layout reuse 60 >out
  f=$(trace_of)
  total=$(grep -cE '^HSA: .* dispatch .* start:' "$f")
  tids=" $(sed -n 's/^tids //p' out) "
  # per signal: the op that ended last, "TID WAITER" (waiter 0: none), and
  # how many of its ops the program's threads completed
  last=$(grep -E '^HSA: .* dispatch .* start:' "$f" | awk -v tids="$tids" '{
    t = $3; sub(/^tid:/, "", t); s = ""; e = 0; w = 0
    for (i = 4; i <= NF; i++) {
      if ($i ~ /^signal:/) s = $i
      if ($i ~ /^stop:/) { e = $i; sub(/^stop:/, "", e); e += 0 }
      if ($i ~ /^waiter:/) { w = $i; sub(/^waiter:/, "", w) }
    }
    if (index(tids, " " t " ")) mine[s]++
    if (!(s in end) || e > end[s]) { end[s] = e; who[s] = t " " w }
  } END { for (s in who) print who[s], mine[s] + 0 }')
  bad=""
  n=0
  while read -r t w mine; do
    n=$((n + 1))
    # a thread held off its core until its ops had all landed (a loaded
    # machine) waits for none of them: its waiter completed them before
    [ "$mine" -gt 0 ] || continue
    case "$tids" in *" $t "*) [ "$t" = "$w" ] || bad="$bad waiter:$w" ;; *) bad="$bad tid:$t" ;; esac
  done <<EOF2
$last
EOF2
  lost=$(summary "$f" | tr ' ' '\n' | grep -E '^(lost|lost_gpu|unfinished):' | tr '\n' ' ')
  echo "hsa b2b $layout reuse: $total ops; the last of each of the $n counts completed in its wait:${bad:- yes}; $lost"
  cd ..
done
mkdir noint && cd noint
HSA_ENABLE_INTERRUPT=0 traced "$PROGS/tp_wait" b2b 1t2q reuse 200 >out
f=$(trace_of)
lost=$(summary "$f" | tr ' ' '\n' | grep -E '^(lost|lost_gpu|unfinished):' | tr '\n' ' ')
echo "hsa b2b 1t2q reuse without interrupts: $(grep -cE '^HSA: .* dispatch .* start:' "$f") ops; $lost"
cd ..
