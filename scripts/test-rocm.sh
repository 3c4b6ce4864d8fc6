#!/bin/sh
# test-rocm.sh [SUITE...]: `make test-rocm`. Runs the test suite (tests/run.sh)
# against each Debian suite's real ROCm on the simulated GPU
# (scripts/rocm-suite.sh), one suite at a time, and prints one line per suite:
#   SUITE: N passed, N failed          (then the failing tests' names)
#   SUITE: skipped (why)               (its packages cannot be fetched)
# Suites: trixie sid experimental, or RTG_ROCM_SUITES, or the arguments.
# Full logs in build-rocm/SUITE/test.log. Exit status 1 when a suite has a
# failing test or does not build; a skipped suite is reported, not passed.
#
# 139-convert-browser, 191-html-report and 192-html-report-firefox are left
# to bookworm's `make test`: they check rtg-convert's JSON and HTML report
# in a browser (chromium, firefox-esr, node and npm, absent from the
# chroots), which no ROCm release changes.
TOP=$(cd "$(dirname "$0")/.." && pwd)
[ $# -gt 0 ] || set -- ${RTG_ROCM_SUITES:-trixie sid experimental}
LIMIT=${RTG_ROCM_TIMEOUT:-1800} # seconds per suite, set-up and build included
status=0
for s in "$@"; do
  log="$TOP/build-rocm/$s/test.log"
  mkdir -p "$(dirname "$log")"
  t0=$(date +%s)
  timeout "$LIMIT" "$TOP/scripts/rocm-suite.sh" "$s" -- env RTG_TEST_SKIP="139-convert-browser 191-html-report 192-html-report-firefox" \
    tests/run.sh >"$log" 2>&1
  rc=$?
  secs=$(($(date +%s) - t0))
  line=$(tail -n 1 "$log")
  if [ $rc = 3 ]; then
    echo "$s: skipped ($(grep '^skip: ' "$log" | head -n 1 | sed 's/^skip: //'))"
    continue
  fi
  case $line in
  *" passed, "*" failed"*)
    built=$(sed -n 's/^rocm-suite: .* built in \([0-9]*\) s$/\1/p' "$log")
    echo "$s: $line ($secs s, of which build ${built:-?} s)"
    grep '^failed:' "$log" | sed 's/^failed:/  failed:/'
    [ $rc = 0 ] || status=1
    ;;
  *)
    echo "$s: did not run (exit status $rc, $secs s): $(tail -n 3 "$log" | tr '\n' ' ')"
    status=1
    ;;
  esac
done
exit $status
