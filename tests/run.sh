#!/bin/sh
# Runs every unit-test program (build/tests/test_*) and every end-to-end case
# (tests/e2e/NNN-name.sh, compared with NNN-name.expect), and ends with one
# line "N passed, N failed" (", N skipped" added when some were skipped).
#   tests/run.sh [PATTERN...]   only cases whose name contains a PATTERN
# A case that cannot run here (the runtime lacks what it tests, e.g. HIP
# before 5.3 or ROCTx on Debian 12) prints "SKIP: why" and exits 77: it is
# counted as skipped, never as passed, and its .expect is not compared.
# Environment for the cases: B (build dir), TOP (source dir), SIMGPU (dir of
# the simulated GPU's libraries), TMP (a fresh scratch directory per case).
# RTG_TEST_SKIP: space-separated case names reported as skipped, not run.
# RTG_SUITE (set by scripts/rocm-suite.sh): NNN-name.expect.SUITE, when it
# exists, is that Debian suite's expected output instead of NNN-name.expect.
B=${B:-build}
TOP=$(cd "$(dirname "$0")/.." && pwd)
cd "$TOP" || exit 1
B=$(cd "$B" && pwd)
export B TOP
export SIMGPU="$B/simgpu"
patterns="$*"
# chosen NAME: the case is one of those asked for (all when none)
chosen() {
  [ -z "$patterns" ] && return 0
  for p in $patterns; do
    case "$1" in *"$p"*) return 0 ;; esac
  done
  return 1
}
# Under SAN=thread a race fails the program at once.
case ",${SAN:-}," in *,thread,*) export TSAN_OPTIONS="halt_on_error=1${TSAN_OPTIONS:+:$TSAN_OPTIONS}" ;; esac
# Under SAN=address, leaks inside the libraries rtg uses are not rtg's.
case ",${SAN:-}," in *,address,*) export LSAN_OPTIONS="suppressions=$TOP/tests/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}" ;; esac
# the harness's own settings are not the cases' environment
suite=${RTG_SUITE:-}
skip=${RTG_TEST_SKIP:-}
unset RTG_SUITE RTG_TEST_SKIP RTG_BUILD
passed=0
failed=0
skipped=0
failed_names=""
logdir="$B/test-logs"
rm -rf "$logdir"
mkdir -p "$logdir"

report() { # name status [skip reason]
  if [ "$2" = 77 ]; then
    skipped=$((skipped + 1))
    printf 'SKIP  %s  (%s)\n' "$1" "$(printf '%s' "${3:-}" | sed 's/^SKIP:* *//')"
  elif [ "$2" = 0 ]; then
    passed=$((passed + 1))
    printf 'PASS  %s\n' "$1"
  else
    failed=$((failed + 1))
    failed_names="$failed_names $1"
    printf 'FAIL  %s  (log: %s)\n' "$1" "$logdir/$1.log"
    sed 's/^/    | /' "$logdir/$1.log" | tail -n 40
  fi
}

for t in "$B"/tests/test_*; do
  [ -x "$t" ] || continue
  name=$(basename "$t")
  chosen "$name" || continue
  TMP=$(mktemp -d) && export TMP
  (cd "$TMP" && timeout 300 "$t") >"$logdir/$name.log" 2>&1
  st=$?
  report "$name" $st "$(grep -m 1 '^SKIP' "$logdir/$name.log")"
  rm -rf "$TMP"
done

for c in tests/e2e/[0-9]*.sh; do
  [ -f "$c" ] || continue
  name=$(basename "$c" .sh)
  chosen "$name" || continue
  case " $skip " in *" $name "*)
    report "$name" 77 "RTG_TEST_SKIP"
    continue
    ;;
  esac
  # a release that really behaves differently has its own expected output
  expect="${c%.sh}.expect"
  if [ -n "$suite" ] && [ -f "$expect.$suite" ]; then expect="$expect.$suite"; fi
  TMP=$(mktemp -d) && export TMP
  out="$logdir/$name.out"
  (cd "$TMP" && timeout 600 sh "$TOP/$c") >"$out" 2>"$logdir/$name.err"
  st=$?
  {
    if [ $st != 0 ] && [ $st != 77 ]; then echo "exit status $st"; fi
    # a case without its expected output asserts nothing: a failure
    if [ $st != 77 ] && [ ! -f "$expect" ]; then echo "missing $expect" && st=1; fi
    if [ $st != 77 ] && [ -f "$expect" ] && ! diff -u "$expect" "$out"; then st=1; fi
    echo "--- stderr"; tail -n 30 "$logdir/$name.err"
  } >"$logdir/$name.log" 2>&1
  report "$name" $st "$(grep -m 1 '^SKIP' "$out")"
  rm -rf "$TMP"
done

echo
[ -n "$failed_names" ] && echo "failed:$failed_names"
if [ "$skipped" -gt 0 ]; then
  echo "$passed passed, $failed failed, $skipped skipped"
else
  echo "$passed passed, $failed failed"
fi
[ "$failed" = 0 ] && [ "$passed" -gt 0 ]
