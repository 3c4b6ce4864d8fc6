# The Perfetto trace of a natural HSA trace (examples/hsa_threads on simgpu,
# 4 threads x 300 dispatches, every HSA call traced), checked against the
# Chrome JSON (every slice and argument); strings of 3 bytes or fewer (a
# return value "0", a short index) are written inline, never interned
# (their bytes are no more than a reference's), and the trace stays under
# 0.345 of the JSON's size (all strings interned from their second use:
# 0.348).
. "$TOP/tests/simgpu/env.sh"
. "$TOP/tests/e2e/12-perfetto.inc"
mkdir nat
(cd nat && "$B/rtg-trace" --hsa-trace -o . "$B/examples/hsa_threads" 4 300 > /dev/null) || echo "rtg-trace failed: exit $?"
cat nat/rtg_trace.txt.* > n.txt
pf_check -f n.txt > check.txt || cat check.txt
grep -o 'slices (JSON [0-9]*), [0-9]* instants, [0-9]* flows (JSON [0-9]*), all equal' check.txt |
  sed 's/[0-9][0-9]*/N/g'
python3 - pf.dec <<'PY'
import re, sys
text = open(sys.argv[1]).read()
# interned annotation strings, and the values written inline
interned = re.findall(r'debug_annotation_string_values \{\s*iid: \d+\s*str: "((?:[^"\\]|\\.)*)"', text)
inline = re.findall(r'\bstring_value: "((?:[^"\\]|\\.)*)"', text)
print("interned strings:", "some" if interned else "none",
      "| of 3 bytes or fewer:", sum(len(s) <= 3 for s in interned))
print("inline strings of 3 bytes or fewer:", "some" if any(len(s) <= 3 for s in inline) else "none")
PY
awk -v p="$(wc -c < pf.pftrace)" -v j="$(wc -c < pf.json)" 'BEGIN { printf "size share of the JSON under 0.345: %s\n", p / j < 0.345 ? "yes" : "no (" p / j ")" }'
