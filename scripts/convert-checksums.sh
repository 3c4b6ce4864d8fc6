#!/bin/sh
# Converts every good trace of tests/data (tests/data/convert and
# tests/data/rpt; tests/data/broken is left out) with every output of
# rtg-convert, and rpt's reports, and prints one line per (trace, output):
#   TRACE OUTPUT SHA256
# The checksum covers every file the run writes, its stdout, its stderr and
# its exit status, so two builds that print the same list write the same
# bytes.  Only what is inherently variable is normalised: an RPD (SQLite)
# database is hashed as its `sqlite3 .dump`, not as the file's pages; an
# OTF2 anchor file (trace.otf2) as `otf2-print -A` prints it, less its
# random trace identifier (its definition and event files byte for byte).
#   scripts/convert-checksums.sh [-k DIR] [BUILD_DIR]
# BUILD_DIR (default build) holds rtg-convert and rpt; -k DIR keeps every
# run's outputs in DIR (one folder per trace and output) to compare them.
set -u
keep=""
if [ "${1:-}" = "-k" ]; then
  keep=$2
  shift 2
fi
B=${1:-build}
B=$(cd "$B" && pwd) || exit 2
TOP=$(cd "$(dirname "$0")/.." && pwd)
CONVERT="$B/rtg-convert"
RPT="$B/rpt"
for t in "$CONVERT" "$RPT"; do
  [ -x "$t" ] || { echo "convert-checksums: $t: not built" >&2; exit 2; }
done
for t in sqlite3 sha256sum otf2-print; do
  command -v $t >/dev/null || { echo "convert-checksums: $t is missing" >&2; exit 2; }
done

W=$(mktemp -d) || exit 2
trap 'rm -rf "$W"' EXIT
# The inputs are copied under fixed relative names, so that the outputs
# (which may name their inputs) do not depend on where the checkout is.
mkdir -p "$W/in"
D="$TOP/tests/data"
cp "$D"/convert/*.txt "$D"/convert/real/*.txt "$W/in/"
cp "$D"/rpt/app.log "$D"/rpt/seed002.log "$D"/rpt/rtg_trace.txt.1000 \
  "$D"/rpt/rtg_trace.txt.1001 "$W/in/"

# trace sets: NAME FILE... (paths relative to a run's folder)
SETS="small:../in/small.txt
gen:../in/gen.txt
hcc_strace:../in/hcc_strace.txt
bad:../in/bad.txt
hsa_vadd:../in/hsa_vadd.txt
sg_hip:../in/sg_hip.txt
hip_streams_2gpu:../in/hip_streams_2gpu.txt
real_all:../in/hsa_vadd.txt ../in/sg_hip.txt ../in/hip_streams_2gpu.txt
mixed:../in/small.txt ../in/hcc_strace.txt ../in/gen.txt
rpt_app:../in/app.log
rpt_seed002:../in/seed002.log
rpt_1000:../in/rtg_trace.txt.1000
rpt_1001:../in/rtg_trace.txt.1001
rpt_pair:../in/rtg_trace.txt.1000 ../in/rtg_trace.txt.1001
json_in:../in/small.json ../in/hcc_strace.txt"

# outputs: NAME|ENVIRONMENT|TOOL ARGUMENTS (the trace's files follow)
OUTPUTS="json||C -o out.json
json_fgk||C -f -g -k -o out.json
json_p_zero||C -p --zero -f -o out.json
json_stdout||C -q -f --format json -o -
json_window||C --start 20% --end 80% -f -o out.json
json_verbose||C -v -o out.json
pftrace||C -o out.pftrace
pftrace_fgk||C -f -g -k -o out.pftrace
pftrace_p_zero||C -p --zero -f -o out.pftrace
pftrace_spill|RTG_CONVERT_PF_MEM=0|C -f -g -k -o out.pftrace
pftrace_stdout|RTG_CONVERT_PF_MEM=3000|C -q -f --format perfetto -o -
pftrace_threads|RTG_READER_THREADS=3|C -f -g -o out.pftrace
otf2||C --otf2 o2
otf2_k||C -k --otf2 o2
otf2_spill|RTG_CONVERT_OTF2_RUN=3|C --otf2 o2
csv||C --csv csv
csv_window||C --csv csv --start 10% --end 90% --zero
sqlite||C --sqlite out.rpd
stats||C --stats=st
summary||C --summary
gaps||C --gaps
gaps_opts||C --gaps=g.txt --gap-buckets 5,50,500 --top-gaps 2
analyze||C --analyze
analyze_json||C --analyze=a.json
html||C --html r.html
html_window||C --html r.html --start 10% --end 90% --zero -k
workgroups||C -w -p -k -o out.json
flows_few|RTG_CONVERT_CORR_SLOTS=1024|C -v -f -o out.json
all||C -f -g -o out.json --stats=st --gaps=g.txt --sqlite out.rpd --csv csv --otf2 o2 --analyze=a.json --summary -w --html r.html
all_pftrace||C -f -k -o out.pftrace --stats=st --gaps --sqlite out.rpd --csv csv --otf2 o2 --analyze
rpt||R
rpt_text||R -t
rpt_gui||R -g g.json
rpt_opts||R --topn -1 --gaps 5 50 --no_gaps --ignore_barriers"

# hash_run DIR: one checksum of everything in DIR
hash_run() {
  (cd "$1" && find . -type f | LC_ALL=C sort | while read -r f; do
    case "$f" in
    *.rpd) printf '%s ' "$f"; sqlite3 "$f" .dump | sha256sum ;;
    */trace.otf2)
      printf '%s ' "$f"
      otf2-print -A "$f" | grep -v '^Trace identifier ' | sha256sum
      ;;
    *) printf '%s ' "$f"; sha256sum <"$f" ;;
    esac
  done) | sha256sum | cut -d' ' -f1
}

# json_in reads a Chrome JSON that this build wrote
(cd "$W/in" && "$CONVERT" -q -f -o small.json small.txt) || exit 2

echo "$SETS" | while IFS=: read -r set files; do
  echo "$OUTPUTS" | while IFS='|' read -r out envs cmd; do
    r="$W/out"
    mkdir -p "$r"
    tool=${cmd%% *}
    args=${cmd#?}
    case "$tool" in C) bin=$CONVERT ;; R) bin=$RPT ;; esac
    # shellcheck disable=SC2086 # the arguments and files are word lists
    (cd "$r" && env $envs "$bin" $args $files >"$W/stdout" 2>"$W/stderr"
      echo "exit $?" >"$W/status")
    mv "$W/stdout" "$W/stderr" "$W/status" "$r/"
    printf '%s %s %s\n' "$set" "$out" "$(hash_run "$r")"
    if [ -n "$keep" ]; then
      mkdir -p "$keep/$set.$out" && cp -r "$r/." "$keep/$set.$out/"
    fi
    rm -rf "$r"
  done
done
