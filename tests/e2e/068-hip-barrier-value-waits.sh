# HIP >= 5.3 makes a kernel wait for an SDMA copy with an AMD barrier-value
# packet on the kernel's queue (wait until the copy's signal < 1).  Those are
# recorded as barriers op:value: each that waits on a signal waits on a
# copy's completion signal and ends after that copy; the kernel queued
# behind it starts after the copy ended; none is left uncounted
# (other_packets 0); rtg-convert shows them as barrier-value slices and rpt
# counts them with the barriers.  HIP 5.2 (Debian 12) makes none: SKIP there.
. "$TOP/tests/simgpu/env.sh"
awk() { LD_PRELOAD= command awk "$@"; }
# slow copies, so that kernels really have to wait for some
SIMGPU_SDMA_MBPS=100 RTG_VERBOSE=1 HSA_TOOLS_LIB="$B/rtg_tracer.so" "$B/examples/hip_streams" 2>err.txt
if grep -q 'rtg: HIP API tracing: callback-5.2[+a-z]* path' err.txt; then
  echo "SKIP: HIP before 5.3 (callback-5.2 path) makes no barrier-value packets"
  exit 77
fi
t=$(ls rtg_trace.txt.*)
awk '
function kv(   i, a) { delete F; for (i = 4; i <= NF; i++) if (split($i, a, ":") == 2) F[a[1]] = a[2] }
/^HSA: .* copy .* start:/ { kv(); nc++; cs[nc] = F["signal"]; cstop[nc] = F["stop"] }
/^HSA: .* barrier .* start:/ {
  kv(); if (F["op"] != "value") next
  nb++; if (F["dep1"] == 0) next
  bdep[nb] = F["dep1"]; bstop[nb] = F["stop"]; bq[nb] = F["queue"]; bid[nb] = F["id"]
  conds[F["cond"] " " F["value"]]++
}
/^HSA: .* dispatch .* start:/ { kv(); nd++; dq[nd] = F["queue"]; did[nd] = F["id"]; dstart[nd] = F["start"] }
END {
  for (b = 1; b <= nb; b++) {
    if (!(b in bdep)) continue
    waits++; best = -1
    for (c = 1; c <= nc; c++)
      if (cs[c] == bdep[b] && cstop[c] <= bstop[b] && (best < 0 || cstop[c] > cstop[best])) best = c
    if (best < 0) continue
    oncopy++
    k = -1
    for (d = 1; d <= nd; d++) if (dq[d] == bq[b] && did[d] > bid[b] && (k < 0 || did[d] < did[k])) k = d
    if (k >= 0) { kern++; if (dstart[k] >= cstop[best]) after++ }
  }
  printf "barrier-value records: %s\n", (nb > 0) ? "some" : "none"
  printf "those waiting on a signal: %s\n", (waits > 0) ? "some" : "none"
  for (x in conds) printf "  wait until signal %s\n", x
  printf "waiting on a copy that ended before them: %s\n", (waits && oncopy == waits) ? "all" : oncopy " of " waits
  printf "kernels behind them starting after that copy ended: %s\n", (kern && after == kern) ? "all" : after " of " kern
}' "$t"
grep '^RTG:.* summary' "$t" | sed 's/.* other_packets:\([0-9]*\).*/other_packets:\1/'
echo "host waits on non-host signals (ROCR warnings): $(grep -c 'non-host signal' err.txt)"
"$B/rtg-convert" -q -f -o out.json "$t"
echo "rtg-convert barrier-value slices: $(grep -o '"name":"barrier-value","cat":"barrier"' out.json | wc -l |
  awk '{ print ($1 > 0) ? "some" : "none" }')"
# (rpt names barrier rows as rtg-convert names the slices)
"$B/rpt" --topn -1 "$t" >rpt.txt
echo "rpt barrier rows: $(awk '/^ +[0-9.]+% / && $7 == "barrier-value" { c += $3 } END { print (c > 0) ? "some" : "none" }' rpt.txt)"
