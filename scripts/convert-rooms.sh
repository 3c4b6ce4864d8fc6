#!/bin/sh
# The include graph of src/convert by room, and its rules:
#   scripts/convert-rooms.sh      prints "FROM -> TO (N includes)" per pair
#                                 of rooms, then every broken rule; exit 1
#                                 when a rule is broken
# Rooms: top (the driver: main.c options.c passes.c convert.c convert.h),
# in (the readers), out/<format> (one per output), shared (what several
# outputs use), analyze; "common" is src/common and include/ (below all).
# Rules: no include circle between files; the driver includes no room
# (it names the sinks by their cv_sink symbols); in/ includes no out/;
# shared/ includes neither in/ nor out/ nor analyze/; an out/ format
# includes no other format; analyze/ includes neither in/ nor out/.
TOP=$(cd "$(dirname "$0")/.." && pwd)
cd "$TOP/src/convert" || exit 2
find . -name '*.[ch]' | sed 's|^\./||' | LC_ALL=C sort | while read -r f; do
  d=$(dirname "$f")
  grep -o '^#include "[^"]*"' "$f" | sed 's/^#include "\(.*\)"$/\1/' | while read -r inc; do
    # as the compiler looks: beside the file, then src/convert (-I)
    if [ -f "$d/$inc" ]; then
      t=$(realpath --relative-to=. "$d/$inc")
    elif [ -f "$inc" ]; then
      t=$inc
    else
      t="common:$inc"
    fi
    printf '%s %s\n' "$f" "$t"
  done
done | awk '
function room(f) {
  if (f ~ /^common:/) return "common"
  if (f ~ /^out\//) { split(f, p, "/"); return "out/" p[2] }
  if (f ~ /^(in|shared|analyze)\//) { split(f, p, "/"); return p[1] }
  return "top"
}
function bad(from, to) {
  if (from == to || to == "common") return 0
  if (from == "top") return 1
  if (from == "in" && to ~ /^out\//) return 1
  if (from == "shared" && (to == "in" || to ~ /^out\// || to == "analyze")) return 1
  if (from ~ /^out\// && to ~ /^out\//) return 1
  if (from == "analyze" && (to == "in" || to ~ /^out\//)) return 1
  return 0
}
# depth-first search from f; a file met again on the path is a circle
function visit(f, path,   i, n, t) {
  if (state[f] == 2) return
  if (state[f] == 1) { circles = circles "  circle: " path "\n"; return }
  state[f] = 1
  n = nout[f]
  for (i = 1; i <= n; i++) { t = out[f, i]; visit(t, path " -> " t) }
  state[f] = 2
}
{
  from = room($1); to = room($2)
  if ($2 !~ /^common:/) { out[$1, ++nout[$1]] = $2; files[$1] = 1 }
  files[$1] = 1
  if (from != to) {
    edges[from " -> " to]++
    if (bad(from, to)) broken = broken "  " $1 " includes " $2 " (" from " -> " to ")\n"
  }
}
END {
  for (e in edges) printf "%s (%d includes)\n", e, edges[e] | "LC_ALL=C sort"
  close("LC_ALL=C sort")
  for (f in files) visit(f, f)
  if (broken != "") printf "rules broken:\n%s", broken
  if (circles != "") printf "include circles:\n%s", circles
  if (broken != "" || circles != "") exit 1
  print "no circle, no include against the rules"
}'
