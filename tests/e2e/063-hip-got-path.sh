# HIP calls traced through the GOT slots of the objects that call HIP.
# HIP <= 5.3 profiles every command while any tool has a callback
# registered (its kernels then carry completion signals of its own, which
# stretches a program that synchronizes often).  By default there the
# callbacks trace only the call during which the runtime loads the tracer
# and are then removed, the GOT tracing the rest (the hand-over);
# RTG_HIP_PATH=callback keeps them, RTG_HIP_PATH=got registers none.  The
# same program as 060, traced the three ways: the calls recorded (the GOT
# alone cannot see the loading call: it was entered before), each launch
# on exactly one dispatch of its kernel, and how many kernels carry a
# signal of HIP's.  On 5.3.1+ the tracer callback hands over the same way
# (HIP 7.2 crashes graph launches while one is registered); a 6.2+ dispatch
# table, where HIP offers one, is taken instead.
. "$TOP/tests/simgpu/env.sh"
awk() { LD_PRELOAD= command awk "$@"; }
calls() { grep '^HIP:' "$1" | awk '{ f = $4; sub(/\(.*/, "", f); print f }'; }
signed() { grep -c "^HSA: .* dispatch .* signal:[1-9]" "$1" || true; }
path() { sed -n 's/^rtg: HIP API tracing: \([a-z0-9.+-]*\) path.*/\1/p' "$1"; }
for how in callback default got; do
  mkdir $how
  v=$how
  [ $how = default ] && v=
  (cd $how && RTG_VERBOSE=1 RTG_HIP_PATH=$v HSA_TOOLS_LIB="$B/rtg_tracer.so" "$B/abi/hip_calls" 2>err) ||
    echo "exit $?"
  calls $how/rtg_trace.txt.* >$how.calls
  echo "$how: path $(path $how/err), $(wc -l <$how.calls) calls, kernels with a signal of HIP's $(signed $how/rtg_trace.txt.*)"
done
for how in default got; do
  echo "$how, missed against the callbacks: $(diff callback.calls $how.calls | sed -n 's/^< //p' | tr '\n' ' ')"
  echo "$how, added against the callbacks: $(diff callback.calls $how.calls | sed -n 's/^> //p' | tr '\n' ' ')"
  awk '
/^HIP:.* hipLaunchKernel / { for (i = 5; i <= NF; i++) if ($i ~ /^corr:/) c = substr($i, 6); match($0, / \[[^]]*\]/); kern[c] = substr($0, RSTART + 2, RLENGTH - 3); n++ }
/^HSA:.* dispatch / { c = ""; for (i = 4; i <= NF; i++) if ($i ~ /^corr:/) c = substr($i, 6); match($0, /name:\047[^\047]*\047/); d[c]++; dn[c] = substr($0, RSTART + 6, RLENGTH - 7) }
END { for (c in kern) if (d[c] == 1 && dn[c] == kern[c]) ok++; printf "%s, launches %d, correlated to their own kernel %d\n", how, n, ok }' how=$how $how/rtg_trace.txt.*
  grep '^RTG:.* summary' $how/rtg_trace.txt.* | sed "s/.* hip_calls:\([0-9]*\).* lost:\([0-9]*\).*/$how, summary hip_calls:\1 lost:\2/"
done
# the hand-over's log: the callbacks went when the loading call ended
grep -o 'the loading call ended; [0-9]* callbacks removed' default/err | sed 's/[0-9][0-9]*/N/'
