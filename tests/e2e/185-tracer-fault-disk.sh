# The trace cannot be written where asked: the output directory is a file
# (the trace goes to the working directory), the disk is full from the
# first byte (/dev/full) or after 32 KB (a file size limit, as a quota
# would give).  Each time the tracer says so once on stderr, naming the
# file, and the application runs unharmed: same output, exit status 0.  A
# directory that does not exist is made, without a message.
. "$TOP/tests/e2e/18-fault.inc"
run() { # label: run storm 2 x 2000 with the tracer, report
  echo "-- $1"
  shift
  "$@" >out 2>err
  echo "exit status $?"
  cat out
  echo "tracer messages: $(grep -c '^rtg: ' err), naming the trace file: $(grep -c '^rtg: .*trace' err)"
}
run "missing directory" env RTG_FILENAME=nodir/trace HSA_TOOLS_LIB="$TRACER" "$FAULT" storm 2 2000
sed 's/\.[0-9][0-9]*\([: ]\)/.PID\1/g' err
ls nodir | sed 's/[0-9]*$/PID/'
: >afile
run "not a directory" env RTG_FILENAME=afile/trace HSA_TOOLS_LIB="$TRACER" "$FAULT" storm 2 2000
sed 's/\.[0-9][0-9]*\([: ]\)/.PID\1/g' err
ls trace.* | sed 's/[0-9]*$/PID/'
rm -f trace.*
# the trace file of the process is a link to /dev/full ($$ of the shell
# that execs the program is the program's pid)
run "disk full (/dev/full)" sh -c 'ln -s /dev/full rtg_trace.txt.$$ && HSA_TOOLS_LIB="$1" exec "$2" storm 2 2000' sh "$TRACER" "$FAULT"
rm -f rtg_trace.txt.*
run "disk full after 32 KB (ulimit -f)" sh -c 'ulimit -f 64 && HSA_TOOLS_LIB="$1" exec "$2" storm 2 2000' sh "$TRACER" "$FAULT"
f=$(trace_of)
echo "trace: $(head -c 5 "$f"), at most 64 KB: $([ "$(wc -c <"$f")" -le 65536 ] && echo yes || echo no)"
