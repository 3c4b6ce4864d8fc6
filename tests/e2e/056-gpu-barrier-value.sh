# AMD barrier-value packets (HIP >= 5.3 makes kernels wait for copies with
# them), submitted by hand (tp_barrier_value): each is a barrier record with
# op:value, its signal as dep1, and value, mask and condition, on the host
# side too; the kernel queued behind it starts after it ended.  Both
# completion signals are GPU-only (busy-wait signals, as HIP 6 makes them):
# the tracer never host-waits on them, so ROCR prints no "Use of non-host
# signal in host signal wait API" warning.  rtg-convert names the slice
# barrier-value, and so does rpt.  Runs on every release.
. "$TOP/tests/e2e/02-tracer.inc"
SIMGPU_KERNEL_NS=50000000 RTG_HSA_HOST_DISPATCH=1 traced "$PROGS/tp_barrier_value" 2>err.txt
f=$(trace_of)
kinds "$f"
echo "host waits on non-host signals (ROCR warnings): $(grep -c 'non-host signal' err.txt)"
for side in gpu host; do
  if [ $side = gpu ]; then l=$(grep ' barrier .* start:' "$f"); else l=$(grep ' barrier .* tick:' "$f"); fi
  echo "$side: op:$(val "$l" op) value:$(val "$l" value) mask:$(val "$l" mask) cond:$(val "$l" cond)" \
    "dep1 set: $([ "$(val "$l" dep1)" -gt 0 ] && echo yes || echo no)" \
    "dep2-5: $(val "$l" dep2)$(val "$l" dep3)$(val "$l" dep4)$(val "$l" dep5)"
done
b=$(grep ' barrier .* start:' "$f")
k=$(grep ' dispatch .* start:' "$f")
echo "kernel starts after the barrier-value ends: $([ "$(val "$k" start)" -ge "$(val "$b" stop)" ] && echo yes || echo no)"
summary "$f" | sed 's/ hsa_calls.* other_packets:/ other_packets:/; s/ write_errors.*//'
"$B/rtg-convert" -q -f -o out.json "$f"
echo "rtg-convert: $(grep -o '"name":"barrier-value","cat":"[a-z]*"' out.json | sort | uniq -c | tr -s ' ')"
"$B/rpt" --topn -1 "$f" >rpt.txt
awk '/^Resource=/ { print "rpt:", $1 } /^ +[0-9.]+% / && $7 ~ /^barrier/ { print "rpt: row", $7, "with", $3, "call" }' rpt.txt
