# --merge --summary and --stats from the parts' state (--part keeps what
# the statistics read of every event): the same bytes as converting the
# files at once, without reading a record.  Three hosts whose boot
# clocks lie 1000 s apart and whose wall clocks drift (+8 and -6 ppm over
# the run: a moved duration then differs by a ns from the recorded one),
# the third with no clock pairs; two processes on the first host.  The
# traces hold every kind the statistics count: kernels with resources
# (occupancy) on two queues, HIP graph kernels, barriers, copies timed on
# a GPU and on the CPU agent, HSA calls repeated (polls:), HIP calls, and
# memory records with a leak.
W=1700000000000000 # (within awk's exact integers)
mk() { # FILE HOST PID BOOT0 DRIFT_NS (the wall clock's gain over 5 s; "-": no pairs)
  awk -v host="$2" -v pid="$3" -v b="$4" -v drift="$5" -v w="$W" 'BEGIN {
    pairs = drift == "-" ? "" : sprintf(" boot_ns:%.0f realtime_ns:%s realtime_err:20", b, w)
    printf "RTG: pid:%.0f tid:%.0f trace format:1 host:%s clock:boottime%s\n", pid, pid, host, pairs
    printf "RTG: pid:%.0f tid:%.0f agent index:0 type:cpu name:%s\n", pid, pid, "'"'"'EPYC'"'"'"
    printf "RTG: pid:%.0f tid:%.0f agent index:1 type:gpu name:%s\n", pid, pid, "'"'"'gfx90a'"'"'"
    for (k = 1; k <= 3; k++)
      printf "RTG: pid:%.0f tid:%.0f kernel id:%.0f object:%.0f agent:1 name:%s arch_vgpr:%.0f accum_vgpr:0 sgpr:%.0f lds:%.0f scratch:0 kernarg:64 wavefront:64 arch:gfx90a\n", pid, pid, k, 4096 * k, "'"'"'k" k "'"'"'", 24 * k, 16 * k, 1024 * k
    t = b + 1000000
    srand(pid)
    for (i = 1; i <= 400; i++) {
      t += 3000 + int(rand() * 9000000)
      d = 1000 + int(rand() * 200000)
      q = i % 2
      k = 1 + i % 3
      printf "HIP: pid:%.0f tid:%.0f hipLaunchKernel [k%.0f] ret=0 @%.0f +%.0f corr:%.0f\n", pid, pid, k, t - 900, 700 + i % 13, i
      g = i % 5 == 0 ? sprintf(" graph:%.0f node:%.0f", 1 + i % 2, i % 3) : ""
      printf "HSA: pid:%.0f tid:%.0f dispatch queue:%.0f agent:1 signal:0 name:%s start:%.0f stop:%.0f id:%.0f workgroup:{%.0f,1,1} grid:{%.0f,1,1} lds:%.0f corr:%.0f kernel_id:%.0f%s\n", pid, pid, q, "'"'"'k" k "'"'"'", t, t + d, i, 64 * (1 + i % 4), 4096, 512 * (i % 3), i, k, g
      if (i % 7 == 0)
        printf "HSA: pid:%.0f tid:%.0f barrier queue:%.0f agent:1 signal:0 start:%.0f stop:%.0f dep1:0 dep2:0 dep3:0 dep4:0 dep5:0 id:%.0f\n", pid, pid, q, t + d, t + d + 4000, 1000 + i
      if (i % 4 == 0)
        printf "HSA: pid:%.0f tid:%.0f copy agent:%.0f signal:9 start:%.0f stop:%.0f dep1:0 dep2:0 dep3:0 dep4:0 dep5:0 bytes:65536 kind:%s src_agent:0 dst_agent:1 engine:2\n", pid, pid, i % 8 == 0 ? 0 : 1, t + 100, t + 100 + d / 3, i % 8 == 0 ? "HostToDevice" : "DeviceToDevice"
      if (i % 3 == 0)
        printf "HSA: pid:%.0f tid:%.0f hsa_signal_wait_scacquire (signal=1) ret=0 @%.0f +%.0f polls:%.0f last:%.0f last_dur:%.0f busy:%.0f\n", pid, pid, t + 50, 300 + i % 11, 2 + i % 9, t + 50 + d, 200, 500 + i % 11 + 250 * (i % 9)
      if (i % 50 == 1)
        printf "RTG: pid:%.0f tid:%.0f memory op:alloc start:%.0f stop:%.0f addr:%.0f size:%.0f agent:1 kind:device corr:%.0f\n", pid, pid, t, t + 10, 4096 * i, 1000 * i, i
      if (i % 50 == 26)
        printf "RTG: pid:%.0f tid:%.0f memory op:free start:%.0f stop:%.0f addr:%.0f\n", pid, pid, t, t + 10, 4096 * (i - 25)
    }
    exit_pairs = drift == "-" ? "" : sprintf(" boot_ns:%.0f realtime_ns:%.0f realtime_err:20", t + 10000000, w + (t + 10000000 - b) + drift)
    printf "RTG: pid:%.0f tid:%.0f summary dispatches:400 barriers:57 copies:100 hsa_calls:133 hip_calls:400 lost:0%s\n", pid, pid, exit_pairs
  }' > "$1"
}
mk a.1 node-a 100 1000000000000 40000
mk a.2 node-a 200 1000000000000 40000
mk b.1 node-b 100 2000000000000 -30000
mk c.1 node-c 300 3000000000000 -
C="$B/rtg-convert"
"$C" -v --part a.part a.1 a.2 2>&1 | sed 's/, [0-9]* bytes/, N bytes/g'
"$C" --part b.part b.1
"$C" --part c.part c.1
echo "parts: exit $?"
all="a.1 a.2 b.1 c.1"
parts="a.part b.part c.part"
"$C" --summary $all > all.sum 2> all.err
"$C" --merge --summary $parts > merged.sum
echo "merged: exit $?"
"$C" -v --merge --summary $parts 2> merged.err > /dev/null
sed 's/[0-9][0-9]* bytes/N bytes/g' merged.err
# what the merge read: the state, a fraction of the records
sed -n 's/.* events, \([0-9]*\) bytes read in place of \([0-9]*\) bytes of records/\1 \2/p' merged.err |
  awk '{ print ($1 * 5 < $2) ? "the state: under a fifth of the records" : "the state: " $1 " of " $2 " bytes" }'
cmp all.sum merged.sum && echo "--summary: the same bytes ($(grep -c . all.sum) lines)"
grep -E '^(KERNEL_DISPATCH|HIP_API|HSA_API|MEMORY_COPY|HIP_GRAPH|GPU_TIME|MEMORY|KERNEL_OCC)' all.sum | cut -c1-60
"$C" -q --stats=all.st $all > /dev/null
"$C" -q --merge --stats=merged.st $parts > /dev/null
diff -r all.st merged.st > /dev/null && echo "--stats: the same bytes, $(ls all.st | wc -l) files: $(ls all.st | tr '\n' ' ')"
"$C" -v --summary $all > all.v 2> /dev/null
"$C" -v --merge --summary $parts > merged.v 2> /dev/null
cmp all.v merged.v && echo "-v --summary: the same bytes (hosts' offsets, lines by kind)"
grep 'drift' merged.v | cut -d, -f1,3
"$C" --no-align --summary $all > all.n
"$C" --merge --no-align --summary $parts > merged.n
cmp all.n merged.n && echo "--no-align: the same bytes"
# the moved times matter: aligned and not, the durations differ somewhere
cmp -s all.sum all.n || echo "aligned and --no-align differ, as the drift makes them"
