# src/convert's rooms keep their rules (scripts/convert-rooms.sh): no
# include circle, the driver includes no room, a reader no output, shared/
# no reader or output, an output no other output.  The graph itself is in
# the log when a rule is broken.
"$TOP/scripts/convert-rooms.sh" >graph.txt
st=$?
tail -n 1 graph.txt
[ $st = 0 ] || cat graph.txt >&2
echo "exit $st"
