# Broken inputs (tests/data/broken/gen.sh: truncated, corrupted, binary,
# huge lines, of a real trace and of an HCC_PROFILE log) and the converter's
# other inputs (ROCTx ranges and markers, strace, HCC profile, bad lines):
# the Perfetto trace is valid and holds what the JSON holds, event by event;
# a binary file, which is not a trace, is refused.
. "$TOP/tests/e2e/12-perfetto.inc"
D="$TOP/tests/data"
sh "$D/broken/gen.sh" broken || exit 1
for f in broken/trace/* broken/profile/* "$D/convert/gen.txt" "$D/convert/small.txt" \
  "$D/convert/bad.txt" "$D/convert/hcc_strace.txt"; do
  case "$f" in */binary) # not a trace: refused, nothing written (issue 25)
    "$B/rtg-convert" -q -o nt.pftrace "$f" 2>nt.err
    echo "$(basename "$(dirname "$f")")/binary: exit $?, $(grep -c 'not a trace:' nt.err) 'not a trace' line, $(ls -A | grep -c nt.pftrace) files nt.pftrace*"
    continue
    ;;
  esac
  out=$(pf_check -f -g "$f" 2>&1)
  st=$?
  facts=$(printf '%s\n' "$out" | sed -n 's/^check_pftrace: \([0-9]*\) slices.*, \([0-9]*\) instants, \([0-9]*\) flows (JSON [0-9]*)\(.*\), all equal/\1 slices, \2 instants, \3 flows\4/p')
  if [ $st = 0 ] && [ -n "$facts" ]; then
    echo "$(basename "$(dirname "$f")")/$(basename "$f"): as the JSON: $facts"
  else
    echo "$f: FAILED"
    printf '%s\n' "$out" | head -n 5
  fi
done
