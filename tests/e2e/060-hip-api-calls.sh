# HIP API tracing for real (ROCm 5.2.3 callback path) on simgpu: every HIP
# call of tests/abi/hip_calls.cpp appears in order, each launch carries its
# kernel name and a correlation id that is on exactly one dispatch of that
# kernel, each hipMemcpy*/hipMemset* id is on the copies or fill kernels it
# caused, and the HSA calls made inside a HIP call lie within its duration.
. "$TOP/tests/simgpu/env.sh"
# the checking tools run without the sanitizer runtime env.sh may preload
# (it reports mawk's own over-reads)
awk() { LD_PRELOAD= command awk "$@"; }
RTG_HSA_API_FILTER=all HSA_TOOLS_LIB="$B/rtg_tracer.so" "$B/abi/hip_calls" || echo "exit $?"
t=$(ls rtg_trace.txt.*)
echo "-- calls"
grep '^HIP:' "$t" | awk '{ f = $4; sub(/\(.*/, "", f); k = ""; if (match($0, / \[[^]]*\]/)) k = substr($0, RSTART, RLENGTH); print f k }' | uniq -c | sed 's/^ *//'
echo "-- correlation"
awk '
/^HIP:/ {
  f = $4; sub(/\(.*/, "", f)
  for (i = 5; i <= NF; i++) { if ($i ~ /^@/) s = substr($i, 2); if ($i ~ /^\+/) d = substr($i, 2); if ($i ~ /^corr:/) c = substr($i, 6) }
  name[c] = f; st[c] = s; en[c] = s + d; tid[c] = $3
  if (match($0, / \[[^]]*\]/)) kern[c] = substr($0, RSTART + 2, RLENGTH - 3)
  if (f == "hipLaunchKernel") launches++
}
/^HSA:.* dispatch / {
  c = ""; for (i = 4; i <= NF; i++) if ($i ~ /^corr:/) c = substr($i, 6)
  match($0, /name:\047[^\047]*\047/); n = substr($0, RSTART + 6, RLENGTH - 7)
  disp[c]++; dname[c] = n
}
/^HSA:.* copy / { for (i = 4; i <= NF; i++) if ($i ~ /^corr:/) copies[substr($i, 6)]++ }
/^HSA: .* ret=/ && !/ dispatch | barrier | copy / {
  c = ""; for (i = 4; i <= NF; i++) { if ($i ~ /^@/) s = substr($i, 2); if ($i ~ /^\+/) d = substr($i, 2); if ($i ~ /^corr:/) c = substr($i, 6) }
  if (c != "") { hsa++; hs[hsa] = s; he[hsa] = s + d; hc[hsa] = c; ht[hsa] = $3 }
}
END {
  for (c in kern) if (name[c] == "hipLaunchKernel") { if (disp[c] == 1 && dname[c] == kern[c]) ok++; else print "launch corr " c " has " disp[c] " dispatches named " dname[c] }
  printf "launches %d, correlated to their own kernel %d\n", launches, ok
  for (c in name) if (name[c] ~ /^hipMemcpy|^hipMemset/) { if (copies[c] + disp[c] > 0) mc++; else print name[c] " corr " c " caused no GPU op" ; m++ }
  printf "memcpy/memset calls %d, with their GPU ops %d\n", m, mc
  for (i = 1; i <= hsa; i++) { c = hc[i]; if (!(c in name)) continue; n++; if (hs[i] >= st[c] && he[i] <= en[c] && ht[i] == tid[c]) inside++ }
  printf "HSA calls inside a HIP call: %s\n", (n > 0 && n == inside) ? "all" : inside "/" n
}' "$t"
grep -c '^HIP:' "$t" | sed 's/^/HIP records: /'
grep '^RTG:.* summary' "$t" | sed 's/.* hip_calls:\([0-9]*\).*/summary hip_calls:\1/'
