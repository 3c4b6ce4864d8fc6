# HIP API tracing with 8 application threads (each with its own stream and
# 4 kernels) and across fork: every call appears with its own thread id,
# every launch is correlated to one dispatch of its kernel, and a forked
# child's trace holds no HIP record of its parent.
. "$TOP/tests/simgpu/env.sh"
# the checking tools run without the sanitizer runtime env.sh may preload
# (it reports mawk's own over-reads)
awk() { LD_PRELOAD= command awk "$@"; }
corr_check() {
  awk '
  /^HIP:/ { c = ""; for (i = 4; i <= NF; i++) if ($i ~ /^corr:/) c = substr($i, 6)
            f = $4; sub(/\(.*/, "", f); if (f == "hipLaunchKernel") { launch[c] = 1; n++ }
            calls[$3]++ }
  /^HSA:.* dispatch / { for (i = 4; i <= NF; i++) if ($i ~ /^corr:/) disp[substr($i, 6)]++ }
  END { for (c in launch) if (disp[c] == 1) ok++
        for (t in calls) { nt++; per[calls[t]]++ }
        printf "launches %d, correlated %d\n", n, ok
        for (k in per) printf "threads with %d HIP records: %d\n", k, per[k] }' "$@"
}
echo "-- 8 threads"
# one hardware queue per stream: with fewer (HIP's default is 4), HIP 5.2
# now and then submits one thread's kernel from another thread's HIP call,
# and the dispatch carries that call's correlation id (065 covers it).
# Not 8: a thread's new stream may get the queue of another's stream being
# destroyed, whose hipStreamDestroy then submits the new stream's first
# kernel (seen about once in 200 runs, with and without the callbacks)
GPU_MAX_HW_QUEUES=16 HSA_TOOLS_LIB="$B/rtg_tracer.so" "$B/abi/hip_calls" threads 8
corr_check rtg_trace.txt.* | sort
grep '^HIP:' rtg_trace.txt.* | awk '{ f = $4; sub(/\(.*/, "", f); print f }' | sort | uniq -c | sed 's/^ *//'
rm -f rtg_trace.txt.*
echo "-- fork"
HSA_TOOLS_LIB="$B/rtg_tracer.so" "$B/abi/hip_calls" fork
n=0
for f in rtg_trace.txt.*; do
  if grep -q 'hipMalloc' "$f"; then
    echo "parent: $(grep -c '^HIP:' "$f") HIP records"; corr_check "$f" | head -1
  else
    n=$((n + 1)); echo "other file: $(grep -c '^HIP:' "$f") HIP records"
  fi
done
