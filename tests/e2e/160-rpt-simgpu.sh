# rpt on traces of the real ROCm runtime (simulated GPU): an ordinary rtg
# trace needs no HCC_PROFILE re-run, and an HCC_PROFILE=2 log of the same
# program gives the same commands on the same GPU; rtg-convert --gaps names
# the GPUs of the trace as rpt does.  Times vary from run to run, so only
# the resources and the command rows (calls, name) are compared; gap rows
# and percentages are left out.
. "$TOP/tests/e2e/02-tracer.inc"
rows() { # the resource lines and the non-gap rows as "calls name"
  awk '/^Resource=/ { print $1; next }
       /^ +[0-9.]+% / && $7 != "gap" { print "   ", $3, ($7 == "" ? "(barrier)" : $7) }' "$1"
}
mkdir trace hcc
(cd trace && SIMGPU_KERNEL_NS=3000 traced "$SIMGPU/sg_barrier" >/dev/null && "$B/rpt" --topn -1 rtg_trace.txt.* >../t.txt &&
  "$B/rtg-convert" -q --gaps=../g.txt rtg_trace.txt.*)
(cd hcc && SIMGPU_KERNEL_NS=3000 HCC_PROFILE=2 traced "$SIMGPU/sg_barrier" >/dev/null && "$B/rpt" --topn -1 rtg_trace.txt.* >../h.txt)
echo "== sg_barrier, rtg trace"; rows t.txt
echo "== sg_barrier, HCC_PROFILE=2"; rows h.txt
gpus() { grep -o '^Resource=GPU[0-9]*' "$1" | sed 's/Resource=//' | sort -u | tr '\n' ' '; }
if [ "$(gpus t.txt)" = "$(gpus g.txt)" ]; then
  echo "== rtg-convert --gaps names the same GPUs: $(gpus g.txt)"
else
  echo "== rtg-convert --gaps names other GPUs: $(gpus g.txt), rpt: $(gpus t.txt)"
fi
rm -rf trace hcc
mkdir trace
(cd trace && SIMGPU_GPUS=1 traced "$SIMGPU/sg_copy" >/dev/null && "$B/rpt" --topn -1 rtg_trace.txt.* >../c.txt 2>../c.err)
echo "== sg_copy, rtg trace"; rows c.txt | sort
echo "== warnings: $(wc -l <c.err)"
