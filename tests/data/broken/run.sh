#!/bin/sh
# Runs the broken-input cases of cases.txt whose tool is TOOL (convert, rpt)
# and whose name contains PATTERN; one line per case:
#   NAME: exit S, message ok, <what was kept>
# with "exit S (want W)" or "message MISSING: ..." when the table disagrees.
# What was kept: rtg-convert: the Chrome JSON's slices, flows (events too for
# JSON merges) (and
# whether it is valid JSON in valid UTF-8), lines skipped; rpt: records per
# resource (the calls of its rows that are not gaps), lines skipped.
#   run.sh TOOL [PATTERN]      (environment: B, TOP, TMP as in tests/run.sh)
export LC_ALL=C
tool=$1
pattern=${2:-}
D=$TOP/tests/data
BR=$D/broken
G=$TMP/broken
[ -d "$G" ] || sh "$BR/gen.sh" "$G" || { echo "gen.sh failed"; exit 1; }
O=$TMP/out
while IFS='|' read -r name t args want msg; do
  case "$name" in '#'* | '' | pending-*) continue ;; esac
  [ "$t" = "$tool" ] || continue
  case "$name" in *"$pattern"*) ;; *) continue ;; esac
  rm -rf "$O"
  mkdir -p "$O"
  args=$(printf '%s' "$args" | sed "s|\\\$G|$G|g; s|\\\$D|$D|g; s|\\\$O|$O|g")
  if [ "$t" = convert ]; then
    # shellcheck disable=SC2086
    (cd "$O" && exec "$B/rtg-convert" $args) >"$O/stdout" 2>"$O/stderr" </dev/null
  else
    # shellcheck disable=SC2086
    (cd "$O" && exec "$B/rpt" $args) >"$O/stdout" 2>"$O/stderr" </dev/null
  fi
  st=$?
  line="$name: exit $st"
  [ "$st" = "$want" ] || line="$line (want $want)"
  if [ -z "$msg" ]; then
    [ -s "$O/stderr" ] && line="$line, unexpected messages: $(head -n 1 "$O/stderr" | sed "s|$G/||g")"
  elif grep -F -q -- "$msg" "$O/stderr"; then
    line="$line, message ok"
  else
    line="$line, message MISSING: $msg (got: $(head -n 1 "$O/stderr" | sed "s|$G/||g"))"
  fi
  skipped=$(sed -n 's/.*warning: \([0-9]*\) input lines skipped.*/\1/p; s/.*: \([0-9]*\) of [0-9]* lines skipped.*/\1/p' "$O/stderr" |
    awk '{ n += $1 } END { print n + 0 }')
  if [ "$t" = convert ]; then
    if [ -f "$O/out.json" ]; then
      # (merged Chrome JSON events are copied as they were: rtg's own
      # checks of its events need not hold for them, validity does)
      # the count of all events only for merges (metadata events depend on
      # the lanes, a layout choice)
      case "$name" in
      *json*) what='\1 events, \2 slices, \3 flows' ;;
      *) what='\2 slices, \3 flows' ;;
      esac
      j=$("$B/tests/test_convert_chrome" "$O/out.json" 2>&1 | sed -n "s/.*: \([0-9]*\) events, \([0-9]*\) slices, \([0-9]*\) flows/$what/p")
      [ -n "$j" ] || j="INVALID JSON"
      iconv -f UTF-8 -t UTF-8 "$O/out.json" >/dev/null 2>&1 || j="$j, INVALID UTF-8"
      line="$line, kept $j"
    else
      line="$line, no output"
    fi
  else
    # records per resource: the Calls of its rows that are not gaps
    r=$(awk '/^Resource=/ { split($1, a, "="); res = a[2]; order[++n] = res; next }
      res != "" && $1 ~ /%$/ && $7 != "gap" { c[res] += $3 }
      END { for (i = 1; i <= n; i++) printf "%s%s %d", (i > 1 ? " " : ""), order[i], c[order[i]] }' "$O/stdout")
    line="$line, kept ${r:-no records}"
  fi
  echo "$line, skipped $skipped"
done <"$BR/cases.txt"
