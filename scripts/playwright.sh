# Sourced by the scripts that drive headless Chromium through playwright-core
# (the HTML report's browser test and benchmark): installs what is missing,
# chromium (apt) and playwright-core (npm pack, cached in $RTG_CACHE,
# default ~/.cache/rtg; no browser download: it drives /usr/bin/chromium),
# and sets PLAYWRIGHT_CORE to the package's directory.  Calls `fail MSG`
# (the caller's) when it cannot.
PLAYWRIGHT_VERSION=1.65.1
if ! command -v chromium >/dev/null 2>&1; then
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO=sudo
  export DEBIAN_FRONTEND=noninteractive
  { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq --no-install-recommends chromium; } \
    >/dev/null 2>&1 || fail "cannot install chromium with apt"
fi
command -v node >/dev/null 2>&1 || fail "node is missing (apt-get install nodejs npm)"
PLAYWRIGHT_CORE="${RTG_CACHE:-${HOME:-/tmp}/.cache/rtg}/playwright-core-$PLAYWRIGHT_VERSION/package"
if [ ! -f "$PLAYWRIGHT_CORE/package.json" ]; then
  mkdir -p "$(dirname "$PLAYWRIGHT_CORE")"
  (cd "$(dirname "$PLAYWRIGHT_CORE")" && npm pack "playwright-core@$PLAYWRIGHT_VERSION" >/dev/null 2>&1 &&
    tar xzf playwright-core-*.tgz) || fail "cannot fetch playwright-core from npm"
fi
export PLAYWRIGHT_CORE
