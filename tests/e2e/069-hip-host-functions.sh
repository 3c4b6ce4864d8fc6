# Host functions in a stream and in graphs, traced: each round's host
# function sleeps, then writes the round's number, and the stream copies it
# to the device and back; the copy must see that write (tp_hip_hostfn).
# HIP >= 6 holds the stream on a marker whose signal starts at 2 and which
# only HIP's handler takes to 0, after the host function returns; a tracer
# that let the GPU go on at the hardware's decrement (value 1) would copy
# the previous round's number, or run a graph's host function after the
# graph was released (HIP 7.2: SIGSEGV, SIGABRT).  HIP 7.2 also crashes
# graph launches while a tracer callback is registered, so the callback
# traces only the loading call (the hand-over, 063).  Every mode must give
# the untraced result, with nothing lost or unfinished in the trace.
. "$TOP/tests/e2e/02-tracer.inc"
for m in callback hostfunc graph capture; do
  u=$(timeout 120 "$PROGS/tp_hip_hostfn" $m 12 2>/dev/null)
  us=$?
  if [ $us = 77 ]; then
    echo "$m: not in this HIP"
    continue
  fi
  mkdir $m
  t=$(cd $m && timeout 120 env HSA_TOOLS_LIB="$TRACER" "$PROGS/tp_hip_hostfn" $m 12 2>/dev/null)
  ts=$?
  echo "$m: untraced $u (exit $us), traced $t (exit $ts)"
  summary $m/rtg_trace.txt.* | sed -n "s/.* \(lost:[0-9]*\).* \(unfinished:[0-9]*\).*/$m: \1 \2/p"
done
