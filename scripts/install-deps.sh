#!/bin/sh
# Installs the Debian 12 packages rtg needs to build, test and run its demo.
# Idempotent: does nothing when everything is present; runs apt-get update
# at most once per invocation.
set -eu

PKGS="build-essential pkg-config
libhsa-runtime64-1 libhsa-runtime-dev libhsakmt-dev
libsqlite3-dev sqlite3 libunwind-dev libcjson-dev
clang lld libclang-rt-14-dev clang-format protobuf-compiler python3
hipcc libamdhip64-dev
libotf2-trace-dev otf2-tools"

missing=""
for p in $PKGS; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $p"
  fi
done

if [ -z "$missing" ]; then
  [ "${1:-}" = "-q" ] || echo "install-deps: all packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
    echo "install-deps: missing packages:$missing (run as root or install sudo)" >&2
    exit 1
  fi
fi

echo "install-deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing
