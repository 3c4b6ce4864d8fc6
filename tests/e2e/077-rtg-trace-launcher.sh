# rtg-trace: sets HSA_TOOLS_LIB and the RTG_* variables from its options,
# preserves the exit status and a killing signal, writes into -o DIR,
# converts with --convert (its file also as the next word before --), and
# documents every option in --help.
. "$TOP/tests/simgpu/env.sh"
echo "-- exit status"
"$B/rtg-trace" -- sh -c 'exit 3'; echo "status $?"
"$B/rtg-trace" -- sh -c 'kill -TERM $$'; echo "status $?"
"$B/rtg-trace" -- /nonexistent/program 2>/dev/null; echo "status $?"
"$B/rtg-trace" 2>/dev/null; echo "status $?"
"$B/rtg-trace" --bogus -- true 2>/dev/null; echo "status $?"
echo "-- environment"
"$B/rtg-trace" --hip-trace=hipMalloc --hip-filter-out=Async -a --hsa-trace=core --hsa-filter-out=signal \
  --host-dispatch --no-kernels --no-copies --hcc-profile --no-roctx --kernel-rename --backtrace=hipMemcpy:1000 \
  --buffer-mb=64 --buffer-full=drop --exit-wait-ms=10 -v2 -o out/dir -- env |
  grep -E '^(RTG_|HCC_PROFILE|HSA_TOOLS_LIB)' | sed "s|$B|\$B|" | sort
"$B/rtg-trace" --no-hip-trace --hip-table -- env | grep -E '^(RTG_HIP_API_FILTER|ROCPROFILER_REGISTER_LIBRARY|LD_PRELOAD|HSA_TOOLS_ROCPROFILER)' |
  sed -e "s|$B|\$B|g" -e 's|=.*:|=|' | sort
echo "-- a HIP program into -o DIR, converted"
"$B/rtg-trace" -o traces --convert=run.json -- "$B/abi/hip_calls" 2>/dev/null; echo "status $?"
ls traces | sed 's/[0-9][0-9]*$/PID/'
grep -c '^HIP:' traces/rtg_trace.txt.*
test -s run.json && echo "run.json written"
echo "-- an option's optional value as the next word, when -- marks the program"
"$B/rtg-trace" -c my.json --html my.html -A my-an.json -- "$B/progs/tp_exec" 2 wait true >/dev/null 2>err
echo "status $?"; sort err; ls my.json my.html my-an.json
"$B/rtg-trace" -v 1 -- env | grep '^RTG_VERBOSE='
"$B/rtg-trace" -c -- sh -c 'exit 4' 2>/dev/null; echo "-c -- PROGRAM: status $?"
echo "-- without --, a file name after -c is refused, not run"
"$B/rtg-trace" -c my.json "$B/progs/tp_exec" 2 wait true 2>&1; echo "status $?"
"$B/rtg-trace" --html my.html "$B/progs/tp_exec" 2 wait true 2>&1; echo "status $?"
"$B/rtg-trace" -c sh -c 'exit 5' 2>/dev/null; echo "-c PROGRAM: status $?"
echo "-- --help names every option"
"$B/rtg-trace" --help >help.txt; echo "status $?"
for o in hip-trace no-hip-trace hip-filter-out args hsa-trace hsa-filter-out host-dispatch no-kernels \
         no-copies hcc-profile no-roctx kernel-rename backtrace hip-table output-dir filename buffer-mb buffer-full \
         exit-wait-ms verbose convert stats rpt tracer help version; do
  grep -q -- "--$o" help.txt || echo "missing --$o"
done
echo done
