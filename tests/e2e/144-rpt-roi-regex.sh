# ROI by [N]%REGEX: the record after the Nth text block holding a matching
# line, counted in start time order; POSIX extended syntax; markers in an
# rtg trace are its text lines (ROCTx, API calls).
D=$TOP/tests/data/rpt
R=$B/rpt
echo "== %iteration"; "$R" -r '%iteration' "$D/app.log" | head -n 4
echo "== 2%iteration -R 3%iter"; "$R" -r '2%iteration' -R '3%iter' "$D/app.log"
echo "== %^iteration [0-9]+ begin\$ (ERE), 0% = 1%"; "$R" -r '0%^iteration [0-9]+ begin$' "$D/app.log" | head -n 1
echo "== %other (match in a multi-line block, rstripped)"; "$R" -r '%other' "$D/app.log" | head -n 2
echo "== -R %exit (trailing text)"; "$R" -R '%exit' "$D/app.log" | head -n 3
echo "== 4%iteration"; "$R" -r '4%iteration' "$D/app.log"; echo "exit=$?"
echo "== %nomatch"; "$R" -r '%nomatch' "$D/app.log"; echo "exit=$?"
echo "== ROCTx marker in an rtg trace"; "$R" -r "%message:'phase 2'" "$D/rtg_trace.txt.1000" | head -n 2
echo "== two files"; "$R" -r "%hipLaunchKernel" "$D/rtg_trace.txt.1000" "$D/rtg_trace.txt.1001" | head -n 2 | sed "s|$D/||"
