# No records: a warning, nothing else, exit 0.  "-" reads stdin; one record
# makes a one-record ROI (start = stop, no table rows).
R=$B/rpt
: >empty.log
"$R" empty.log; echo "exit=$?"
echo "only text" | "$R" -; echo "exit=$?"
printf 'profile:  kernel;\t%40s;\t  10.0 us;\t1000;\t11000;\t#0.0.0;\n' a.kd | "$R" - | sed 's/ *$//'; echo "exit=$?"
printf 'x\nprofile: kernel; k; 1.0 us; 5; 6; #0.0.0;\n' | "$R" --db - | sed 's/ *$//'
