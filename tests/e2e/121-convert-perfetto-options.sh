# The options that shape the JSON shape the Perfetto trace the same way
# (--zero, --start/--end in us and in %, -p), the format follows -o's name
# unless --format says otherwise, -o - writes to stdout, and the trace
# says its clock (CLOCK_BOOTTIME, 6) in the sequence's packet defaults.
. "$TOP/tests/e2e/12-perfetto.inc"
R="$TOP/tests/data/convert/real"
echo "== --zero -f"
pf_check --zero -f "$R/hip_streams_2gpu.txt"
# the earliest timestamp is 0
sed -n 's/^  timestamp: //p' pf.dec | sort -n | head -n 1
echo "== --start 5% --end 95% -f -p"
pf_check --start 5% --end 95% -f -p "$R/sg_hip.txt"
echo "== --start/--end in us, --zero"
pf_check --start 1992849000 --end 1992852000 --zero "$R/hsa_vadd.txt"
echo "== the clock"
# sequence 1 (descriptors, slice ends out of order) on CLOCK_BOOTTIME; each
# track's sequence on its own incremental clock 64, started on CLOCK_BOOTTIME
grep -A1 trace_packet_defaults pf.dec | head -n 2 | tail -n 1
grep -c '^ *clock_id: 64$' pf.dec
grep -c 'is_incremental: true' pf.dec
grep -c 'track_event_defaults' pf.dec
echo "== --format"
"$B/rtg-convert" -q --format json -o j.pftrace "$R/sg_hip.txt" && head -c 15 j.pftrace && echo
"$B/rtg-convert" -q --format perfetto -o p.json "$R/sg_hip.txt"
"$B/rtg-convert" -q -o p2.pftrace "$R/sg_hip.txt" && cmp p.json p2.pftrace && echo "same trace by name and by --format"
"$B/rtg-convert" --format xml -o x "$R/sg_hip.txt" 2>&1; echo "exit $?"
echo "== -o - (stdout)"
# (a file has padding in the room left before the events; a pipe has no room)
python3 "$TOP/tests/perfetto/strip_padding.py" p2.pftrace > p2.stripped 2> pads.txt && cat pads.txt
"$B/rtg-convert" -q --format perfetto -o - "$R/sg_hip.txt" | cmp - p2.stripped && echo "stdout: the same trace"
RTG_CONVERT_PF_ROOM=0 "$B/rtg-convert" -q -o p0.pftrace "$R/sg_hip.txt" && cmp p0.pftrace p2.stripped &&
  echo "a file without room: the same trace"
echo "== unwritable output"
"$B/rtg-convert" -q -o /nonexistent/dir/t.pftrace "$R/sg_hip.txt" 2>&1; echo "exit $?"
"$B/rtg-convert" -q -o /dev/full "$R/sg_hip.txt" --format perfetto 2>&1; echo "exit $?"
echo "== a Chrome JSON input (merged into JSON outputs only)"
"$B/rtg-convert" -o cj.pftrace "$TOP/tests/data/broken/chrome.json" 2>&1 | sed "s|$PWD/||"; echo "exit $?"
# (the sequence's first packet, the root track, the padding)
protoc --decode_raw <cj.pftrace | grep -c '^1 {'
