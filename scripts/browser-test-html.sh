#!/bin/sh
# Runs scripts/browser-html.js (the HTML report in headless Chromium through
# playwright-core, or with RTG_BROWSER=firefox in headless Firefox ESR
# through puppeteer-core) after installing what it needs
# (scripts/playwright.sh, scripts/puppeteer.sh).
#   scripts/browser-test-html.sh check REPORT.html EXPECT.json
#   scripts/browser-test-html.sh bench REPORT.html
# Prints "browser: ..." lines; exit 0 when every check passed, 1 otherwise
# (never a silent skip).
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
fail() { echo "browser: FAIL: $*"; exit 1; }
if [ "${RTG_BROWSER:-chromium}" = firefox ]; then
  . "$TOP/scripts/puppeteer.sh"
else
  . "$TOP/scripts/playwright.sh"
fi
report=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
mode=$1
shift 2
exec timeout 180 node "$TOP/scripts/browser-html.js" "$mode" "$report" "$@"
