# Sourced by the scripts that drive headless Firefox through puppeteer-core
# and WebDriver BiDi (the HTML report's browser test with
# RTG_BROWSER=firefox): installs what is missing, firefox-esr (apt) and
# puppeteer-core with its dependencies (npm, cached in $RTG_CACHE, default
# ~/.cache/rtg; no browser download: it drives /usr/bin/firefox-esr), and
# sets PUPPETEER_CORE to the package's directory.  Calls `fail MSG` (the
# caller's) when it cannot.
PUPPETEER_VERSION=24.10.0
if ! command -v firefox-esr >/dev/null 2>&1; then
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO=sudo
  export DEBIAN_FRONTEND=noninteractive
  { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq --no-install-recommends firefox-esr; } \
    >/dev/null 2>&1 || fail "cannot install firefox-esr with apt"
fi
command -v node >/dev/null 2>&1 || fail "node is missing (apt-get install nodejs npm)"
PUPPETEER_DIR="${RTG_CACHE:-${HOME:-/tmp}/.cache/rtg}/puppeteer-core-$PUPPETEER_VERSION"
PUPPETEER_CORE="$PUPPETEER_DIR/node_modules/puppeteer-core"
if [ ! -f "$PUPPETEER_CORE/package.json" ]; then
  mkdir -p "$PUPPETEER_DIR"
  (cd "$PUPPETEER_DIR" && npm install --no-audit --no-fund --ignore-scripts --no-save \
    "puppeteer-core@$PUPPETEER_VERSION" >/dev/null 2>&1) || fail "cannot fetch puppeteer-core from npm"
fi
export PUPPETEER_CORE
