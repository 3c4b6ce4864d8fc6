# RTG_BACKTRACE=hipMemcpy,hipLaunchKernel: only those calls carry stack:ID;
# each STACK record lists return addresses, identical stacks share an id,
# and at exit each distinct address is symbolized once (function, module).
# With :MIN_NS, calls shorter than MIN_NS get no stack.
. "$TOP/tests/simgpu/env.sh"
# the checking tools run without the sanitizer runtime env.sh may preload
# (it reports mawk's own over-reads)
awk() { LD_PRELOAD= command awk "$@"; }
RTG_BACKTRACE=hipMemcpy,hipLaunchKernel HSA_TOOLS_LIB="$B/rtg_tracer.so" "$B/abi/hip_calls"
t=$(ls rtg_trace.txt.*)
echo "-- calls with a stack"
grep '^HIP:.* stack:' "$t" | awk '{ f = $4; sub(/\(.*/, "", f); print f }' | sort | uniq -c | sed 's/^ *//'
echo "calls without a stack that should have one: $(grep -E '^HIP: [^ ]+ [^ ]+ (hipMemcpy|hipLaunchKernel)' "$t" | grep -vc ' stack:')"
echo "-- stacks"
# the 8 launches come from one loop
echo "distinct stack ids on launches: $(grep '^HIP:.*hipLaunchKernel.* stack:' "$t" | sed 's/.* stack://' | sort -u | wc -l)"
echo "stack records: $(grep -c '^RTG:.* stack id:' "$t") = distinct ids used: $(grep '^HIP:.* stack:' "$t" | sed 's/.* stack://' | sort -u | wc -l)"
grep '^RTG:.* stack id:' "$t" | sed 's/.* pcs://' | tr ',' '\n' | sort -u | while read -r p; do printf '%d\n' "$p"; done | sort >pcs.txt
grep '^RTG:.* symbol addr:' "$t" | sed 's/.* addr:\([0-9]*\).*/\1/' | sort >syms.txt
echo "distinct addresses: $(test -s pcs.txt && echo some), each symbolized exactly once: $(cmp -s pcs.txt syms.txt && echo yes)"
# (Only where HIP's callbacks take the stack, inside hipMemcpy: kept with
# RTG_HIP_PATH=callback.  The GOT (the default after the loading call) and
# the dispatch table (6.2+) take it where the call returns to its caller;
# and Debian's 6.4 and 7.2 libraries are stripped anyway: hence the expects)
grep -q "^RTG:.* symbol .*name:'hipMemcpy' .*module:'[^']*libamdhip64" "$t" && echo "hipMemcpy symbolized in libamdhip64"
grep -q "^RTG:.* symbol .*module:'[^']*hip_calls'" "$t" && echo "frames of the program itself"
# main is not exported (no -rdynamic): named from the executable's .symtab
grep -q "^RTG:.* symbol .*name:'main' offset:[0-9]* module:'[^']*hip_calls'" "$t" &&
  echo "main named from the program's .symtab"
rm -f rtg_trace.txt.*
echo "-- min duration"
# A call gets a stack exactly when it lasted at least MIN_NS (1 ms here);
# which calls those are depends on the machine, so check the rule itself,
# and that both sides of it occurred.
RTG_BACKTRACE=all:1000000 HSA_TOOLS_LIB="$B/rtg_tracer.so" "$B/abi/hip_calls"
grep '^HIP:' rtg_trace.txt.* | awk '
  { d = 0; s = 0
    for (i = 4; i <= NF; i++) { if ($i ~ /^\+[0-9]+$/) d = substr($i, 2) + 0; if ($i ~ /^stack:/) s = 1 }
    if (s) { with++; if (d < 1000000) bad++ } else { without++; if (d >= 1000000) bad++ } }
  END { printf "stack exactly on calls of 1 ms or more: %s\n", bad ? "no (" bad ")" : "yes"
        printf "calls with and without a stack: %s\n", (with && without) ? "both" : "not both" }'
