# RTG_HIP_PATH=got: HIP calls traced through the GOT slots of the objects
# that call HIP, with no callback registered.  HIP <= 5.3 profiles every
# command once any tool registers a callback (its kernels then carry
# completion signals of its own, which stretches a program that
# synchronizes often); this way it does not.  The same program as 060,
# traced both ways: the calls recorded (the GOT path cannot see the call
# during which the runtime loads the tracer: it was entered before), each
# launch on exactly one dispatch of its kernel, and how many kernels carry
# a signal of HIP's.  Releases with a dispatch table (6.2+) keep that path.
. "$TOP/tests/simgpu/env.sh"
awk() { LD_PRELOAD= command awk "$@"; }
calls() { grep '^HIP:' "$1" | awk '{ f = $4; sub(/\(.*/, "", f); print f }'; }
signed() { grep -c "^HSA: .* dispatch .* signal:[1-9]" "$1" || true; }
mkdir cb got
(cd cb && HSA_TOOLS_LIB="$B/rtg_tracer.so" "$B/abi/hip_calls") || echo "exit $?"
(cd got && RTG_VERBOSE=1 RTG_HIP_PATH=got HSA_TOOLS_LIB="$B/rtg_tracer.so" "$B/abi/hip_calls" 2>err) ||
  echo "exit $?"
sed -n 's/^rtg: HIP API tracing: \([a-z0-9-]*\) path.*/path: \1/p' got/err
a=$(ls cb/rtg_trace.txt.*) g=$(ls got/rtg_trace.txt.*)
calls "$a" >a.calls
calls "$g" >g.calls
echo "calls: $(wc -l <a.calls) with callbacks, $(wc -l <g.calls) through the GOT"
echo "missed through the GOT: $(diff a.calls g.calls | sed -n 's/^< //p' | tr '\n' ' ')"
echo "added through the GOT: $(diff a.calls g.calls | sed -n 's/^> //p' | tr '\n' ' ')"
awk '
/^HIP:.* hipLaunchKernel / { for (i = 5; i <= NF; i++) if ($i ~ /^corr:/) c = substr($i, 6); match($0, / \[[^]]*\]/); kern[c] = substr($0, RSTART + 2, RLENGTH - 3); n++ }
/^HSA:.* dispatch / { c = ""; for (i = 4; i <= NF; i++) if ($i ~ /^corr:/) c = substr($i, 6); match($0, /name:\047[^\047]*\047/); d[c]++; dn[c] = substr($0, RSTART + 6, RLENGTH - 7) }
END { for (c in kern) if (d[c] == 1 && dn[c] == kern[c]) ok++; printf "launches %d, correlated to their own kernel %d\n", n, ok }' "$g"
echo "kernels with a signal of HIP's: $(signed "$a") with callbacks, $(signed "$g") through the GOT"
grep '^RTG:.* summary' "$g" | sed 's/.* hip_calls:\([0-9]*\).* lost:\([0-9]*\).*/summary hip_calls:\1 lost:\2/'
