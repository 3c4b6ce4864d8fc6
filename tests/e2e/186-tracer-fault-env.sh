# RTG_* variables with garbage values (029 covers RTG_PROFILE, RTG_VERBOSE
# and HCC_PROFILE words): each gives one clear message naming the variable
# and the documented default it uses instead, the trace is written with that
# default, and the application runs unharmed.  RTG_BACKTRACE=all:xyz (a
# minimum duration that is not a number) must be refused the same way.
. "$TOP/tests/e2e/18-fault.inc"
export LC_ALL=C
for kv in RTG_EXIT_WAIT_MS=soon RTG_EXIT_WAIT_MS=-5 RTG_EXIT_WAIT_MS=1e3 RTG_BUFFER_MB=lots \
  RTG_BUFFER_MB=0 RTG_BUFFER_FULL=sometimes RTG_HSA_POLL=sometimes RTG_BUFFER_KB=1 RTG_HSA_HOST_DISPATCH=2 RTG_ROCTX=maybe RTG_KERNEL_RENAME=? RTG_HIP_API_ARGS=x \
  RTG_PROFILE_COPY=nope RTG_VERBOSE=-1 "RTG_PROFILE=$(printf '\377\376')" RTG_FILENAME= \
  RTG_BACKTRACE=all:xyz; do
  rm -f rtg_trace.txt.*
  env "$kv" HSA_TOOLS_LIB="$TRACER" "$FAULT" storm 1 10 >out 2>err
  st=$?
  name=${kv%%=*}
  f=$(trace_of)
  echo "$kv: exit $st, $(cat out), trace $(echo "$f" | sed 's/[0-9]*$/PID/'), dispatch records $(records "$f" dispatch), host dispatch records $(kinds "$f" | awk '$1 == "dispatch_host" { n = $2 } END { print n + 0 }'), messages naming $name: $(grep -c "^rtg: .*$name" err)"
  # the wording of a message that does not exist yet is not prescribed
  [ "$name" = RTG_BACKTRACE ] || grep '^rtg: ' err
done | sed 's/\o377\o376/<FF FE>/g'
