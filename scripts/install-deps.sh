#!/bin/sh
# Installs the Debian packages rtg needs to build, test and run its demo
# (Debian 12 for CI; trixie and later name some packages differently, and
# ROCm >= 6.3 has no separate thunk to build simgpu's thunk front end with).
# Idempotent: does nothing when everything is present; runs apt-get update
# at most once per invocation.
set -eu

codename=$( (. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}") || true)
case $codename in
bookworm | "") CLANG_RT=libclang-rt-14-dev HSAKMT=libhsakmt-dev ;;
trixie) CLANG_RT=libclang-rt-dev HSAKMT=libhsakmt-dev ;;
*) CLANG_RT=libclang-rt-dev HSAKMT="" ;;
esac

PKGS="build-essential pkg-config
libhsa-runtime64-1 libhsa-runtime-dev $HSAKMT
libsqlite3-dev sqlite3 libunwind-dev libcjson-dev
clang lld $CLANG_RT clang-format protobuf-compiler python3 xz-utils
hipcc libamdhip64-dev
libotf2-trace-dev otf2-tools
openmpi-bin libopenmpi-dev"
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
