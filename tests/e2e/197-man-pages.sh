# The man pages: each Markdown page beside the code becomes a man page
# (scripts/md2man, as `make man` does) that man renders at 80 columns
# without a warning, with every section of the page, and documenting every
# long option the command's --help lists.
command -v man >/dev/null 2>&1 || { echo "SKIP: no man here"; exit 77; }
command -v groff >/dev/null 2>&1 || { echo "SKIP: no groff here"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3 here"; exit 77; }
page() { # MARKDOWN NAME.SECTION [PROGRAM]
  md=$TOP/$1
  python3 "$TOP/scripts/md2man" --version X "$md" >"$2" || { echo "$2: md2man failed"; return; }
  MANWIDTH=80 man --warnings -l "$2" >"$2.txt" 2>"$2.err"
  st=$?
  if [ $st != 0 ] || [ -s "$2.err" ] || [ ! -s "$2.txt" ]; then
    echo "$2: man exit $st, $(wc -l <"$2.err") warning lines, $(wc -l <"$2.txt") lines out"
    head -n 5 "$2.err"
    return
  fi
  # every ## section of the page is a section of the man page
  grep '^## ' "$md" | sed 's/^## //; s/`//g' | tr '[:lower:]' '[:upper:]' | while read -r title; do
    grep -qixF "$title" "$2.txt" || echo "$2: section missing: $title"
  done
  # every long option of --help is in the page
  if [ -n "${3:-}" ]; then
    "$3" --help 2>&1 | grep -o -e '--[a-z][a-z_-]*' | sort -u | while read -r opt; do
      grep -q -e "$opt" "$2.txt" || echo "$2: $opt of --help is not documented"
    done
  fi
  echo "$2: $(sed -n '1p' "$2.txt" | awk '{print $1}'), checked, no warnings"
}
page src/tracer/README.md rtg_tracer.7
page src/tracer/rtg_trace/README.md rtg-trace.1 "$B/rtg-trace"
page src/convert/README.md rtg-convert.1 "$B/rtg-convert"
page src/rpt/README.md rpt.1 "$B/rpt"
