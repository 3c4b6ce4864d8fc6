# Bad input never stops rpt: each bad line is warned about with file:line
# (rate-limited), counted, and kept as text; the report is still valid and
# the exit status 0.
R=$B/rpt
{
  echo "app output"
  printf 'profile:  kernel;\t%40s;\t  10.0 us;\t1000;\t11000;\t#0.0.0;\n' a.kd
  echo "profile: kernel"                                   # no fields
  echo "profile: kernel; k; fast;"                         # bad duration
  echo "profile: kernel; k; 1.0 us;"                       # no times
  echo "profile: kernel; k; 1.0 us; 5;"                    # one time
  echo "profile: kernel; k; 1.0 us; 9000; 2000; #0.0.1;"   # stop < start
  echo "profile: widget; k; 1.0 us; 2000; 3000; #0.0.1;"   # unknown type
  echo "profile: kernel; k; 1.0 us; 2000; 3000; #0.x.1;"   # bad tag: #0.0.0
  echo "profile: copy; HostToDevice; 1.0 us; 2000; 3000; #0.0.1;"  # no bytes
  echo "profile: kernel; k; 1.0 us; 2000; 3000; #70000.0.1;"       # device too big
  printf 'profile: kernel; \001\000\377; 1.0 us; 2000; 3000; #0.0.1;\n' # NUL byte
  echo "HSA: pid:1 tid:1 dispatch queue:0 agent:1 name:'x' start:1 stop:2 id:1"  # not in a profile file
  head -c 3000000 /dev/zero | tr '\0' 'x'; echo          # a 3 MB line
  printf 'profile:  kernel;\t%40s;\t  10.0 us;\t50000;\t60000;\t#0.0.2;\n' b.kd
  printf 'profile:  kernel; truncated; 1'                  # no newline at the end
} >bad.log
"$R" bad.log >out.txt 2>err.txt
echo "exit=$?"
sed 's/ *$//' out.txt
echo "-- stderr"
cat err.txt
echo "== binary junk"
i=0
while [ $i -lt 300 ]; do
  printf '\000\001\377\376\nprofile:\000\001; x\r\n\033[1m\0377ELF\002\001'
  i=$((i + 1))
done >junk.bin
echo >>junk.bin
printf 'profile:  kernel;\t%40s;\t  10.0 us;\t1000;\t11000;\t#0.0.0;\n' a.kd >>junk.bin
printf 'profile:  kernel;\t%40s;\t  10.0 us;\t21000;\t31000;\t#0.0.0;\n' a.kd >>junk.bin
"$R" junk.bin >out.txt 2>err.txt; echo "exit=$?"
sed 's/ *$//' out.txt
tail -n 1 err.txt
echo "== broken trace records"
{
  echo "RTG: pid:1 tid:1 agent index:0 type:gpu"
  echo "HSA: pid:1 tid:1 dispatch queue:0 agent:0 signal:1 name:'k.kd' start:1000 stop:2000 id:1"
  echo "HSA: pid:1 tid:1 dispatch queue:0 agent:0 signal:1 name:'k.kd' start:3000"
  echo "HSA: pid:1 tid:1 barrier queue:0 agent:0 signal:1 start:9000 stop:3000 dep1:0 dep2:0 dep3:0 dep4:0 dep5:0 id:2"
  echo "HSA: pid:1 tid:1 dispatch queue:0 agent:0 signal:1 name:'k.kd' start:5000 stop:7000 id:3"
} >broken.txt
"$R" broken.txt 2>&1 | sed 's/ *$//'; echo "exit=$?"
