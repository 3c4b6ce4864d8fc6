#!/bin/sh
# rocm-chroot.sh SUITE: makes (once) and prints the path of a Debian chroot
# holding SUITE's real ROCm runtimes and the compilers rtg builds with:
#   trixie        ROCR 6.1.2 (thunk libhsakmt1 6.2.4, dynamic), HIP 5.7.1
#   sid           ROCR 6.4.3 (thunk built in), HIP 6.4.3
#   experimental  ROCR 7.2.4 (thunk built in), HIP 7.2.4 (from experimental)
# The chroot is cached in $RTG_ROCM_CACHE/SUITE (default /var/cache/rtg-rocm)
# and made again when its package list changes.  RTG_ROCM_REAL=1: the
# chroot SUITE-real, which also holds Debian's ROCm library clients that
# scripts/test-real.sh runs (rocRAND's and hipRAND's tests, rocblas-bench:
# a few GB, so apart from the test suite's chroot). Needs root and mmdebstrap
# (installed with apt when missing). Exit status 3 with a "skip: reason" line
# on stderr when the suite's packages cannot be fetched: the caller reports the
# suite as skipped, never as passed. RTG_ROCM_MIRROR overrides the Debian
# mirror (default: the host's apt sources). Concurrent calls for one suite
# wait for each other (flock).
set -eu
SUITE=${1:?usage: rocm-chroot.sh trixie|sid|experimental}
CACHE=${RTG_ROCM_CACHE:-/var/cache/rtg-rocm}
ROOT="$CACHE/$SUITE"
[ "${RTG_ROCM_REAL:-0}" = 1 ] && ROOT="$CACHE/$SUITE-real"

# Mirror: RTG_ROCM_MIRROR, else the host's own (deb822 or one-line sources),
# else Debian's.
mirror() {
  [ -z "${RTG_ROCM_MIRROR:-}" ] || { echo "$RTG_ROCM_MIRROR"; return; }
  m=$(awk '$1 == "URIs:" && $2 ~ /\/debian\/?$/ { print $2; exit }' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
  [ -n "$m" ] || m=$(awk '$1 == "deb" && $2 ~ /\/debian\/?$/ { print $2; exit }' /etc/apt/sources.list 2>/dev/null || true)
  echo "${m:-http://deb.debian.org/debian}"
}
M=$(mirror)

# What every suite needs to build rtg, its examples and tests, and run them
# (ROCm SMI: e2e 044 enumerates the simulated GPU with it; Open MPI: the
# MPI cases 087-089).
BASE="build-essential pkg-config clang lld libsqlite3-dev sqlite3 libunwind-dev libcjson-dev
rocminfo python3 procps file protobuf-compiler libotf2-trace-dev otf2-tools
openmpi-bin libopenmpi-dev"
ROCM="libhsa-runtime-dev libamdhip64-dev hipcc libroctx64-4 libroctx-dev"
case $SUITE in
trixie)
  DIST=trixie PKGS="$BASE $ROCM libhsakmt-dev libclang-rt-dev librocm-smi64-1"
  REAL="librocrand1-tests libhiprand1-tests librocblas0-bench librccl1-tests librocfft0-tests
    libhipfft0-tests librocsparse0-tests libhipsparse0-tests librocsolver0-tests
    libhipsolver0-tests libhipblas0-tests librocalution0-tests"
  SOURCES="deb $M trixie main"
  ;;
sid)
  DIST=sid PKGS="$BASE $ROCM librocm-smi64-1"
  REAL="librocrand1-tests libhiprand1-tests librocblas4-bench librocfft0-tests
    libhipfft0-tests librocsparse1-tests libhipsparse1-tests librocsolver0-tests
    libhipsolver0-tests librocalution0-tests"
  SOURCES="deb $M sid main"
  ;;
experimental)
  # ROCm 7.2 lives in experimental; comgr-dev too, else it pins sid's comgr3.
  DIST=sid PKGS="$BASE" REAL=""
  for p in $ROCM libhsa-runtime64-1 libamdhip64-7 librocprofiler-register-0 libamd-comgr3 \
    libamd-comgr-dev librocm-smi64-7; do PKGS="$PKGS $p/experimental"; done
  for p in librocrand1-tests librocrand1 libhiprand1-tests libhiprand1 librocblas5-bench \
    librocblas5 librccl1-tests librccl1 librocfft0-tests librocfft0 libhipfft0-tests libhipfft0 \
    libhipfft-dev librocsparse1-tests librocsparse1 librocsparse1-tests-data libhipsparse4-tests \
    libhipsparse4 librocsolver0-tests librocsolver0 libhipsolver1-tests libhipsolver1 \
    libhipsolver1-tests-data libhipblas3-tests libhipblas3 libhipblas3-tests-data \
    libhipblaslt1-tests libhipblaslt1 libhipblaslt1-tests-data librocalution1-tests \
    librocalution1; do REAL="$REAL $p/experimental"; done
  SOURCES="deb $M sid main
deb $M experimental main"
  ;;
*)
  echo "rocm-chroot.sh: unknown suite $SUITE (trixie, sid, experimental)" >&2
  exit 2
  ;;
esac
[ "${RTG_ROCM_REAL:-0}" = 1 ] && PKGS="$PKGS $REAL"
PKGS=$(echo $PKGS | tr ' ' '\n' | sort | tr '\n' ' ')
WANT=$(printf '%s\n%s\n' "$SOURCES" "$PKGS" | cksum | cut -d' ' -f1)

if [ -f "$ROOT/.rtg-stamp" ] && [ "$(cat "$ROOT/.rtg-stamp")" = "$WANT" ]; then
  echo "$ROOT"
  exit 0
fi
[ "$(id -u)" = 0 ] || { echo "rocm-chroot.sh: needs root (chroot, mounts)" >&2; exit 1; }
if ! command -v mmdebstrap >/dev/null 2>&1; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mmdebstrap >/dev/null 2>&1 || {
    echo "skip: cannot install mmdebstrap" >&2
    exit 3
  }
fi
mkdir -p "$CACHE"
exec 9>"$ROOT.lock"
flock 9
if [ -f "$ROOT/.rtg-stamp" ] && [ "$(cat "$ROOT/.rtg-stamp")" = "$WANT" ]; then
  echo "$ROOT" # made by another caller meanwhile
  exit 0
fi
rm -rf "$ROOT.new"
log="$ROOT.log"
t0=$(date +%s)
# Valid-Until: sid's and experimental's Release files expire within days; a
# mirror snapshot or a clock behind the archive makes apt call them expired.
# shellcheck disable=SC2086
if ! echo "$SOURCES" | nice mmdebstrap --variant=apt --mode=root \
  --aptopt='Acquire::Check-Valid-Until "false"' \
  --include="$(echo $PKGS | tr ' ' ',')" "$DIST" "$ROOT.new" - >"$log" 2>&1; then
  rm -rf "$ROOT.new"
  why=$(grep -E '^E: ' "$log" | head -n 2 | tr '\n' ' ')
  echo "skip: $SUITE packages cannot be fetched: ${why:-see $log}" >&2
  exit 3
fi
printf '%s\n' "$WANT" >"$ROOT.new/.rtg-stamp"
rm -rf "$ROOT"
mv "$ROOT.new" "$ROOT"
echo "rocm-chroot: $SUITE made in $(($(date +%s) - t0)) s, $(du -sh "$ROOT" | cut -f1)" >&2
echo "$ROOT"
