# 8 application threads whose streams share 2 hardware queues: HIP 5.2 then
# sometimes submits one thread's kernel while another thread is inside a HIP
# call (a stream destroy or synchronize that flushes the shared queue), so a
# dispatch cannot always carry its own launch's correlation id.  What must
# hold every time: a dispatch's id names a HIP call that was running when
# the packet was enqueued (never a stale or unrelated one), a dispatch
# correlated to a launch runs that launch's kernel, every launch and dispatch
# is recorded, and a launch correlated to two dispatches (HIP 7.2: one
# thread's launch also submitted another thread's pending kernel, seen 1 run
# in 3) took the second from a launch left without one: never more extra
# dispatches than launches without their own.
. "$TOP/tests/simgpu/env.sh"
awk() { LD_PRELOAD= command awk "$@"; }
GPU_MAX_HW_QUEUES=2 HSA_TOOLS_LIB="$B/rtg_tracer.so" "$B/abi/hip_calls" threads 8
cat rtg_trace.txt.* > all.txt
# two passes: a thread's HIP records may be written after the dispatches
awk '
  function field(k,   i) { for (i = 4; i <= NF; i++) if (index($i, k ":") == 1) return substr($i, length(k) + 2); return "" }
  FNR == NR && /^HIP:/ { c = field("corr"); f = $4; sub(/\(.*/, "", f); fn[c] = f
            for (i = 4; i <= NF; i++) if ($i ~ /^@/) st[c] = substr($i, 2) + 0; else if ($i ~ /^\+/) du[c] = substr($i, 2) + 0
            if (f == "hipLaunchKernel") { launches++; k = $0; sub(/.*\[/, "", k); sub(/\].*/, "", k); kern[c] = k } }
  FNR != NR && /^HSA:.* dispatch / { d++; c = field("corr"); t = field("tick") + 0; n = $0; sub(/.* name:\047/, "", n); sub(/\047.*/, "", n)
            if (c == "") { nocorr++; next }
            if (!(c in fn)) { unknown++; next }
            if (t < st[c] || t > st[c] + du[c]) outside++
            if (fn[c] == "hipLaunchKernel") { per[c]++; if (n != kern[c]) wrongkernel++ } }
  END { for (c in per) if (per[c] > 1) extra += per[c] - 1
        for (c in kern) if (!(c in per)) orphan++
        printf "launches %d, dispatches %d\n", launches, d
        printf "dispatches without a correlation id: %d, naming no HIP call: %d\n", nocorr, unknown
        printf "enqueued outside the HIP call they name: %d\n", outside
        printf "correlated to a launch of another kernel: %d\n", wrongkernel
        printf "second dispatches of a launch not taken from a launch without one: %d\n", (extra > orphan ? extra - orphan : 0) }' all.txt all.txt
