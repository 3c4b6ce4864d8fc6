# HIP calls traced on whatever HIP release runs the tests (5.2.3 on Debian
# 12; 5.7.1, 6.4.3 and 7.2.4 in the matrix): the release is identified by
# its own op table (never "unknown"), hip_streams' calls carry their names
# and decoded arguments, every launch names its kernel and shares its
# correlation id with exactly one dispatch of that kernel, and every
# hipMemcpyAsync with the copy (or blit kernel) it caused.
. "$TOP/tests/simgpu/env.sh"
awk() { LD_PRELOAD= command awk "$@"; }
RTG_VERBOSE=1 RTG_HIP_API_ARGS=1 HSA_TOOLS_LIB="$B/rtg_tracer.so" "$B/examples/hip_streams" 2>err.txt
t=$(ls rtg_trace.txt.*)
line=$(grep 'rtg: HIP API tracing: ' err.txt)
echo "$line" >&2
case $line in
*"HIP op table unknown"* | "") echo "HIP op table of this release known: no" ;;
*"HIP op table "*) echo "HIP op table of this release known: yes" ;;
esac
awk '
function kv(   i, a) { delete F; for (i = 5; i <= NF; i++) if (split($i, a, ":") >= 2) F[a[1]] = substr($i, length(a[1]) + 2) }
/^HIP:/ {
  kv(); f = $4; sub(/\(.*/, "", f); c = F["corr"]; name[c] = f
  if (f == "hipMemcpyAsync") {
    mc++
    if (match($0, /\(dst=0x[0-9a-f]+, src=0x[0-9a-f]+, size=[0-9]+, kind=[A-Za-z]+, stream=0x[0-9a-f]+\)/)) {
      dec++; s = $0; sub(/.* size=/, "", s); sub(/,.*/, "", s); k = $0; sub(/.* kind=/, "", k); sub(/,.*/, "", k)
      mk[s " " k]++
    }
  }
  if (f == "hipLaunchKernel" && match($0, / \[[^]]*\]/)) { kern[c] = substr($0, RSTART + 2, RLENGTH - 3); kn[kern[c]]++; lc++ }
}
/^HSA: .* dispatch .* start:/ { kv(); n = F["name"]; gsub(/\047/, "", n); disp[F["corr"]]++; dname[F["corr"]] = n }
/^HSA: .* copy .* start:/ { kv(); copies[F["corr"]]++; api[F["api"]]++ }
END {
  printf "hipMemcpyAsync calls %d, arguments decoded %d\n", mc, dec
  for (x in mk) printf "  %d x size=%s\n", mk[x], x | "sort -k3"
  close("sort -k3")
  printf "hipLaunchKernel calls %d\n", lc
  for (x in kn) printf "  %d x [%s]\n", kn[x], x | "sort -k3"
  close("sort -k3")
  for (c in kern) if (disp[c] == 1 && dname[c] == kern[c]) ok++
  printf "launches correlated to one dispatch of their kernel: %d of %d\n", ok, lc
  for (c in name) if (name[c] == "hipMemcpyAsync") { m++; if (copies[c] + disp[c] > 0) mo++ }
  printf "hipMemcpyAsync calls with their GPU op: %d of %d\n", mo, m
  for (x in api) if (x != "async_copy" && x != "async_copy_on_engine") print "unexpected copy api " x
}' "$t"
grep -c 'non-host signal' err.txt | sed 's/^/host waits on non-host signals (ROCR warnings): /'
