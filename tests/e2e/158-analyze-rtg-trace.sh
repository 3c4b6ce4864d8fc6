# rtg-trace shows the answer after the run: --analyze prints the verdict
# (and writes the JSON it names), --html writes the report, next to the
# program's own output; both from one rtg-convert run over the traces of
# this run.
. "$TOP/tests/simgpu/env.sh"
export SIMGPU_IDLE_US=100
"$B/rtg-trace" --analyze=an.json --html=r.html -- "$B/examples/hip_idle_causes" cpu >out.txt 2>err.txt
echo "exit $?"
sed -n 's/^injected \([a-z_]*\) .*/program: injected \1/p' out.txt
grep '^GPU0 (pid [0-9]*): idle' out.txt | sed 's/[0-9][0-9.]* \(s\|ms\|us\|ns\)/T/g; s/[0-9][0-9.]* %/N %/g; s/x [0-9]*/x N/; s/pid [0-9]*/pid P/; s/tid [0-9]*/tid T/'
# (HIP 7.2 warns of leaked signals on stderr, traced or not)
grep '^rtg-trace:' err.txt | sed 's/^\(rtg-trace: wrote\) .*\/\([^/]*\)$/\1 \2/'
python3 -c 'import json,sys; d=json.load(open("an.json")); print("an.json: gpus", [g["gpu"] for g in d["gpus"]])'
grep -c 'id="rtg-analysis"' r.html | sed 's/^/r.html: analysis embedded /'
