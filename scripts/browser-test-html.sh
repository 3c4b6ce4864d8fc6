#!/bin/sh
# Runs scripts/browser-html.js (the HTML report in headless Chromium through
# playwright-core) after installing what it needs (scripts/playwright.sh).
#   scripts/browser-test-html.sh check REPORT.html EXPECT.json
#   scripts/browser-test-html.sh bench REPORT.html
# Prints "browser: ..." lines; exit 0 when every check passed, 1 otherwise
# (never a silent skip).
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
fail() { echo "browser: FAIL: $*"; exit 1; }
. "$TOP/scripts/playwright.sh"
report=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
mode=$1
shift 2
exec timeout 180 node "$TOP/scripts/browser-html.js" "$mode" "$report" "$@"
