# A Perfetto trace written to a file leaves room before its events for
# the track descriptors and the slice ends out of order (known only at the
# end), so the events are not moved at the end: what is left of the room
# is a padding packet (a field Perfetto does not define, which readers
# skip).  Whatever the room (RTG_CONVERT_PF_ROOM), the file is the trace a
# pipe gets plus its padding: none where the room is exactly the size of
# what goes before the events, or where it is too small (then the events
# move up); the smallest packet (5 bytes) where 1-4 bytes would be left;
# two where no one packet has the size (just past a varint's step).  Each
# such file passes the checkers against the JSON.
. "$TOP/tests/e2e/12-perfetto.inc"
R="$TOP/tests/data/convert/real/hip_streams_2gpu.txt"
strip() { python3 "$TOP/tests/perfetto/strip_padding.py" "$1" 2>&1 > "$1.stripped"; }
"$B/rtg-convert" -q -f --format perfetto -o - "$R" > pipe.pftrace
pipe=$(wc -c < pipe.pftrace)
# the size of what goes before the events: a room of 100000 bytes leaves
# one padding packet of the rest
RTG_CONVERT_PF_ROOM=100000 "$B/rtg-convert" -q -f -o big.pftrace "$R"
g=$((100000 - ($(wc -c < big.pftrace) - pipe)))
[ "$g" -gt 100 ] && [ "$g" -lt 100000 ] && echo "descriptors and ends: between 100 and 100000 bytes"
# the room without its padding packet: the same bytes as the pipe's
strip big.pftrace
cmp -s big.pftrace.stripped pipe.pftrace && echo "room 100000: the pipe's bytes"
for d in none 0 1 4 5 6 124 125 129 130 131 200 -1; do
  case $d in
  none) room= label="by default" ;;
  -*) room=$((g + d)) label="G$d" ;;
  *) room=$((g + d)) label="G+$d" ;;
  esac
  RTG_CONVERT_PF_ROOM=$room "$B/rtg-convert" -q -f -o r.pftrace "$R" || echo "exit $?"
  pads=$(strip r.pftrace)
  cmp -s r.pftrace.stripped pipe.pftrace && same="the pipe's bytes" || same=DIFFERENT
  echo "room $label: $pads, $(($(wc -c < r.pftrace) - pipe)) bytes more, $same"
done
echo "== the default room's trace, checked"
pf_check -f "$R"
echo "== a room of 1 byte (the events move up), checked"
RTG_CONVERT_PF_ROOM=1 pf_check -f "$R"
