# Sourced by the benchmarks (scripts/bench-*.sh), which set DIR to their
# scratch directory.
#
# measure CMD...: one run of a command, printed as "wall_s rss_kb user_s
# sys_s": wall seconds to the microsecond (wc -l takes hundredths), peak RSS
# and CPU seconds.  The command's stdout is discarded.
measure() {
  t0=$(date +%s.%N)
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -f '%M %U %S' -o "$DIR/time.txt" "$@" > /dev/null
  else # fall back to python's resource module
    python3 -c 'import resource,subprocess,sys
subprocess.run(sys.argv[1:],stdout=subprocess.DEVNULL,check=True)
r=resource.getrusage(resource.RUSAGE_CHILDREN)
print("%d %.2f %.2f"%(r.ru_maxrss,r.ru_utime,r.ru_stime))' "$@" > "$DIR/time.txt"
  fi
  t1=$(date +%s.%N)
  echo "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }') $(cat "$DIR/time.txt")"
}

# best A B: the smaller of two times (A may be empty: the first run).  The
# machine is shared and noisy, so the benchmarks run each side several
# times, alternately, and keep each side's best run.
best() { awk -v a="$1" -v b="$2" 'BEGIN { print (a == "" || b + 0 < a + 0) ? b : a }'; }
