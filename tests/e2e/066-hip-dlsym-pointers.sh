# A program that loads HIP itself and calls it only through pointers from
# dlsym (as frameworks do).  Pointers taken after the runtime loaded the
# tracer go through the GOT path's trampolines (dlsym is hooked), so the
# hand-over to the GOT (063: HIP <= 5.3's callbacks, 5.3.1+'s tracer
# callback) sees every call.  Pointers taken before go around the GOT: the
# first kernel or copy that begins outside any traced call brings HIP's
# callbacks back, with a warning; the calls from then on are traced, those
# before are not, and the trace says until when (the summary's
# hip_missed_until, which rtg-convert warns about).
. "$TOP/tests/simgpu/env.sh"
awk() { LD_PRELOAD= command awk "$@"; }
for m in late early; do
  mkdir $m
  (cd $m && RTG_VERBOSE=1 HSA_TOOLS_LIB="$B/rtg_tracer.so" "$B/progs/tp_dlsym_hip" $m 2>err) ||
    echo "exit $?"
  echo "$m calls: $(grep -h '^HIP:' $m/rtg_trace.txt.* | awk '{ f = $4; sub(/\(.*/, "", f); printf "%s ", f }')"
  echo "$m warned: $(grep -c 'HIP calls bypass the GOT' $m/err)"
  grep -h '^RTG:.* summary' $m/rtg_trace.txt.* | sed "s/.* hip_calls:\([0-9]*\).* lost:\([0-9]*\).*/$m summary hip_calls:\1 lost:\2/"
  t=$(grep -h '^RTG:.* summary' $m/rtg_trace.txt.* | sed -n 's/.* hip_missed_until:\([0-9]*\).*/\1/p')
  # the first call traced (the loading one), then the first traced again
  at() { grep -h '^HIP:' $m/rtg_trace.txt.* | awk -v n=$1 'NR == n { for (i = 5; i <= NF; i++) if ($i ~ /^@/) print substr($i, 2) }'; }
  echo "$m missed until: $([ -z "$t" ] && echo none || { [ "$t" -gt "$(at 1)" ] && [ "$t" -lt "$(at 2)" ] && echo "between the loading call and the next call traced"; })"
  "$B/rtg-convert" -o $m.json $m/rtg_trace.txt.* 2>&1 | grep -c 'around the tracer' | sed "s/^/$m rtg-convert warnings: /"
done
