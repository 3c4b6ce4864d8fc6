#!/bin/sh
# Loads rtg-convert's Chrome JSON into a real trace viewer (speedscope, from
# npm) in headless Chromium and checks that it imported every track.
# Installs what it needs: chromium (apt) and speedscope (npm pack, cached in
# $RTG_CACHE, default ~/.cache/rtg).  Prints "browser: ..." lines; exit 0
# when the viewer showed the trace, 1 otherwise (never a silent skip).
#   scripts/browser-test-convert.sh [TRACE.txt...]
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
B=$(cd "${B:-$TOP/build}" && pwd)
CACHE=${RTG_CACHE:-${HOME:-/tmp}/.cache/rtg}
SPEEDSCOPE_VERSION=1.25.0
[ $# -gt 0 ] || set -- "$TOP/tests/data/convert/small.txt" "$TOP/tests/data/convert/gen.txt"

fail() { echo "browser: FAIL: $*"; exit 1; }

if ! command -v chromium >/dev/null 2>&1; then
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO=sudo
  export DEBIAN_FRONTEND=noninteractive
  { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq --no-install-recommends chromium; } \
    >/dev/null 2>&1 || fail "cannot install chromium with apt"
fi
ss="$CACHE/speedscope-$SPEEDSCOPE_VERSION"
if [ ! -f "$ss/package/dist/release/index.html" ]; then
  mkdir -p "$ss"
  (cd "$ss" && npm pack "speedscope@$SPEEDSCOPE_VERSION" >/dev/null 2>&1 && tar xzf speedscope-*.tgz) ||
    fail "cannot fetch speedscope from npm"
fi

DIR=$(mktemp -d "${TMPDIR:-/tmp}/rtg-browser.XXXXXX")
srv=""
trap '[ -n "$srv" ] && kill "$srv" 2>/dev/null; rm -rf "$DIR"' EXIT INT TERM
cp -r "$ss/package/dist/release" "$DIR/www"
"$B/rtg-convert" -q -f -g -o "$DIR/www/trace.json" "$@" || fail "rtg-convert failed"
# tracks holding slices: what speedscope shows as separate profiles
tracks=$(python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))["traceEvents"]
print(len({(e["pid"],e["tid"]) for e in d if e.get("ph")=="X"}))' "$DIR/www/trace.json")

# a static server on a free port
python3 -c 'import http.server,socketserver,sys,os
os.chdir(sys.argv[1])
class Q(http.server.SimpleHTTPRequestHandler):
    def log_message(self,*a): pass
s=socketserver.TCPServer(("127.0.0.1",0),Q)
open(sys.argv[2],"w").write(str(s.server_address[1]))
s.serve_forever()' "$DIR/www" "$DIR/port" &
srv=$!
for _ in 1 2 3 4 5 6 7 8 9 10; do [ -s "$DIR/port" ] && break; sleep 0.3; done
port=$(cat "$DIR/port")
url="http://127.0.0.1:$port/index.html#profileURL=http://127.0.0.1:$port/trace.json"
timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
  --no-first-run --disable-component-update --disable-sync --user-data-dir="$DIR/profile" \
  --virtual-time-budget=15000 --dump-dom "$url" >"$DIR/dom.html" 2>"$DIR/chromium.log" ||
  fail "chromium failed: $(tail -n 3 "$DIR/chromium.log")"
grep -q '<title>trace.json - speedscope</title>' "$DIR/dom.html" ||
  fail "speedscope did not load the trace"
# the profile selector says "(1/N)": N tracks imported
shown=$(grep -o '(1/[0-9]*)' "$DIR/dom.html" | head -n 1 | tr -dc 0-9 | sed 's/^1//')
[ "$shown" = "$tracks" ] || fail "speedscope shows ${shown:-no} tracks, the trace has $tracks"
echo "browser: speedscope $SPEEDSCOPE_VERSION in headless chromium loaded the trace: $tracks tracks"
