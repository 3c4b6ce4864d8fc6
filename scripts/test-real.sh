#!/bin/sh
# test-real.sh [SUITE...]: `make test-real`.  Runs Debian's own ROCm library
# clients (rocRAND's and hipRAND's test programs, rocblas-bench), written by
# others, untraced and traced on the simulated GPU against each suite's real
# ROCm (tests/real/run-real.sh inside the suite's "-real" chroot: see
# scripts/rocm-chroot.sh, RTG_ROCM_REAL), and prints one line per suite and
# program.  Suites: trixie sid experimental, or RTG_ROCM_SUITES, or the
# arguments.  At most RTG_REAL_SUITE_TIMEOUT seconds per suite (default
# 1500).  Exit status 1 when a program failed or a suite did not run; a
# suite whose packages cannot be fetched is reported skipped, not passed.
TOP=$(cd "$(dirname "$0")/.." && pwd)
[ $# -gt 0 ] || set -- ${RTG_ROCM_SUITES:-trixie sid experimental}
LIMIT=${RTG_REAL_SUITE_TIMEOUT:-1500}
status=0
for s in "$@"; do
  log="$TOP/build-rocm/$s/test-real.log"
  mkdir -p "$(dirname "$log")"
  t0=$(date +%s)
  RTG_ROCM_REAL=1 timeout "$LIMIT" "$TOP/scripts/rocm-suite.sh" "$s" -- tests/real/run-real.sh \
    ${RTG_REAL_PATTERN:-} >"$log" 2>&1
  rc=$?
  secs=$(($(date +%s) - t0))
  if [ $rc = 3 ]; then
    echo "$s: skipped ($(grep '^skip: ' "$log" | head -n 1 | sed 's/^skip: //'))"
    continue
  fi
  grep -E '^[^ ]+: (ok|OVER|FAIL|skip|noisy|us per)[ ,]' "$log" | sed "s/^/$s /"
  line=$(tail -n 1 "$log")
  case $line in
  *" passed, "*" failed"*) echo "$s: $line ($secs s)" ;;
  *)
    echo "$s: did not run (exit status $rc, $secs s): $(tail -n 3 "$log" | tr '\n' ' ')"
    status=1
    ;;
  esac
  [ $rc = 0 ] || status=1
done
exit $status
