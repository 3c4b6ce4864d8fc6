# -p groups by process, -k names launches after their kernels, -w prints
# workgroup sizes, -v counts lines by kind; several hosts stay apart.
"$B/rtg-convert" -p -k -w -v -o - $TOP/tests/data/convert/small.txt 2>rep.txt | grep -v '"ph":"[Mi]"'
sed "s|$TOP/||" rep.txt
sed 's/node1/node2/; s/pid:100 /pid:200 /' $TOP/tests/data/convert/small.txt > other.txt
"$B/rtg-convert" -q -p -o two.json $TOP/tests/data/convert/small.txt other.txt
grep '"process_name"' two.json
"$B/rtg-convert" -q -o dom.json $TOP/tests/data/convert/small.txt other.txt
grep '"process_name"' dom.json
grep -c '"name":"hipLaunchKernel"' dom.json
