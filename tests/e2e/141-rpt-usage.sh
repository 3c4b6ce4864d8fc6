# rpt's command line: help, version, usage errors (exit 2), unreadable
# input (exit 1), argparse-style abbreviations and --opt=value.
D=$TOP/tests/data/rpt
R=$B/rpt
"$R" --help | head -n 3; echo "help exit=$?"
"$R" --help | grep -c -e '--roi_start' -e '--gaps' -e '--topn' -e '--hide_app_text' -e '--ignore_barriers' -e '--no_gaps' -e '--info' -e '--db' -e '--gui_trace' -e '--text_trace'
"$R" --version | sed 's/[0-9][0-9.]*/X.Y.Z/'
"$R" 2>/dev/null; echo "no args exit=$?"
"$R" --bogus "$D/app.log" >/dev/null 2>err.txt; echo "bad option exit=$?"; head -n 1 err.txt
"$R" --topn x "$D/app.log" >/dev/null 2>&1; echo "bad topn exit=$?"
"$R" --gaps 0 "$D/app.log" >/dev/null 2>&1; echo "zero gap exit=$?"
"$R" -r 'x12' "$D/app.log" >/dev/null 2>err.txt; echo "bad roi exit=$?"; cat err.txt
"$R" -r '@' "$D/app.log" >/dev/null 2>&1; echo "empty line roi exit=$?"
"$R" -r '%(' "$D/app.log" >/dev/null 2>&1; echo "bad regex exit=$?"
"$R" -R '^soon' "$D/app.log" >/dev/null 2>&1; echo "bad time exit=$?"
"$R" --roi_s=@4 "$D/app.log" >/dev/null 2>&1; echo "ambiguous abbreviation exit=$?"
"$R" -g 2>/dev/null; echo "missing value exit=$?"
"$R" no-such-file 2>&1; echo "missing file exit=$?"
"$R" "$D/app.log" no-such-file >out.txt 2>&1; echo "one missing of two exit=$? (lines out: $(wc -l <out.txt))"
"$R" "$D" 2>&1 | sed "s|$D|DIR|"; "$R" "$D" 2>/dev/null; echo "directory exit=$?"
# abbreviations and = forms give the same report as the full options
"$R" --topn 2 --roi_start @4 "$D/app.log" >a.txt
"$R" --top=2 --roi_sta=@4 "$D/app.log" >b.txt
"$R" "$D/app.log" --topn=2 -r@4 >c.txt
cmp a.txt b.txt && cmp a.txt c.txt && echo "abbreviated options agree"
# --gaps takes every number that follows it (and commas), the file after
"$R" --gaps 5 30 "$D/app.log" | grep gap
"$R" --gaps=5,30 "$D/app.log" | grep gap | head -n 1
