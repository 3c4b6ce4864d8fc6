# Managed memory made as HIP 6.4 makes it (rocclr: an anonymous mmap, SVM
# attributes on the range, munmap at hipFree), by a stand-in with HIP's
# file name (tp_managed_os, libamdhip64.so.tp): the tracer watches the
# mmap and munmap of that library alone and records the range as managed
# memory from its mmap to its first attributes, the free at its munmap.
# Attributes set again (hipMemAdvise) and the program's own mapping record
# nothing; calls that fail keep their result and errno; a forked child that
# unmaps the parent's range records nothing in its own file (the parent's
# has the allocation), the parent's later munmap is its free.  Needs a
# runtime that takes SVM attributes (the kernel-driver front end of sid
# and experimental; the host's and trixie's thunk refuses them).
. "$TOP/tests/e2e/02-tracer.inc"
"$PROGS/tp_managed_os" >plain.out 2>&1
if grep -q refused plain.out; then
  echo "SKIP: the runtime refuses SVM attributes here"
  exit 77
fi
traced "$PROGS/tp_managed_os" >traced.out 2>&1
cmp plain.out traced.out && echo "application output unchanged"
cat traced.out
parent=$(ls rtg_trace.txt.* | head -n 1)
for f in rtg_trace.txt.*; do [ "$(wc -l <"$f")" -gt "$(wc -l <"$parent")" ] && parent=$f; done
echo "-- the parent's records of managed memory (op kind size api), in time order"
grep ' memory op:' "$parent" | grep -v ' api:hsa_amd_memory_pool_' |
  awk '{ for (i = 5; i <= NF; i++) { split($i, kv, ":"); v[kv[1]] = kv[2] }
         pair = v["op"] == "free" ? (v["addr"] == last ? " (the address allocated)" : " (another address)") : ""
         if (v["op"] == "alloc") last = v["addr"]
         print v["start"], v["op"], (v["kind"] == "" ? "-" : v["kind"]), (v["size"] == "" ? "-" : v["size"]), v["api"] pair
         delete v }' | sort -n | cut -d' ' -f2-
echo "-- the child's file"
for f in rtg_trace.txt.*; do
  [ "$f" = "$parent" ] && continue
  echo "memory records: $(grep -c ' memory op:' "$f" | tr -d ' ')"
done
