# ROCTx for real: hip_roctx (linked with Debian's libroctx64) under the
# tracer.  The tracer hooks the roctx library the program loaded; the
# marker, the nested push/pop ranges and the start/stop range are recorded
# with their messages, depth and correlation ids; the kernels launched
# inside them carry their names, their launches' correlation ids, and with RTG_KERNEL_RENAME
# the innermost push range's name; the hipMemcpyAsync's copy (SDMA on 5.x, a
# blit kernel on 6.4 and 7.2) carries its correlation id.  Debian 12 has no ROCTx library: SKIP there.
. "$TOP/tests/simgpu/env.sh"
awk() { LD_PRELOAD= command awk "$@"; }
if [ ! -x "$B/examples/hip_roctx" ]; then
  echo "SKIP: no ROCTx here (libroctx-dev: Debian 13 and later), hip_roctx not built"
  exit 77
fi
RTG_VERBOSE=1 HSA_TOOLS_LIB="$B/rtg_tracer.so" "$B/examples/hip_roctx" 2>err.txt
t=$(ls rtg_trace.txt.*)
grep 'rtg: ROCTx' err.txt >&2
echo "ROCTx hooked: $(grep -q 'rtg: ROCTx: .* path' err.txt && echo yes || echo no)"
echo "-- ROCTx records"
grep '^ROCTX:' "$t" | sed 's/^ROCTX: pid:[0-9]* tid:[0-9]* //; s/ start:[0-9]* stop:[0-9]*//; s/ id:[0-9]*/ id:N/; s/ corr:[0-9]*/ corr:N/'
awk '
function kv(   i, a) { delete F; for (i = 4; i <= NF; i++) if (split($i, a, ":") >= 2) F[a[1]] = substr($i, length(a[1]) + 2) }
/^ROCTX:/ { kv(); m = F["message"]; gsub(/\047/, "", m); rs[m] = F["start"]; re[m] = F["stop"] }
/^HIP:/ { kv(); f = $4; sub(/\(.*/, "", f); name[F["corr"]] = f
  if (f == "hipLaunchKernel" && match($0, / \[[^]]*\]/)) kern[F["corr"]] = substr($0, RSTART + 2, RLENGTH - 3) }
/^HSA: .* dispatch .* start:/ { kv(); n = F["name"]; gsub(/\047/, "", n); nd++; dn[nd] = n; dc[nd] = F["corr"]; dt[nd] = F["tick"]; ops[F["corr"]]++ }
/^HSA: .* copy .* start:/ { kv(); ops[F["corr"]]++ }
END {
  for (d = 1; d <= nd; d++) {
    where = "outside every range"
    if (dt[d] >= rs["fill"] && dt[d] <= re["fill"]) where = "in range fill"
    else if (dt[d] >= rs["twice_and_copy"] && dt[d] <= re["twice_and_copy"]) where = "in range twice_and_copy"
    if (dn[d] ~ /fill|twice/) printf "kernel %s %s, correlated to its launch: %s\n", dn[d], where, (kern[dc[d]] == dn[d]) ? "yes" : "no"
  }
  # 5.x copies with SDMA, 6.4 and 7.2 with a blit kernel (both are GPU ops)
  for (c in name) if (name[c] == "hipMemcpyAsync") printf "hipMemcpyAsync: GPU ops with its correlation id: %d\n", ops[c]
}' "$t"
echo "-- RTG_KERNEL_RENAME=1"
rm -f rtg_trace.txt.*
RTG_KERNEL_RENAME=1 HSA_TOOLS_LIB="$B/rtg_tracer.so" "$B/examples/hip_roctx" >/dev/null 2>&1
grep '^HSA: .* dispatch .* start:' rtg_trace.txt.* | grep -E "fill|twice" |
  sed "s/.* name:'\([^']*\)'.* demangled:'\([^']*\)'.*/\1 (kernel \2)/"
