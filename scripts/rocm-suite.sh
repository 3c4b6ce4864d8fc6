#!/bin/sh
# rocm-suite.sh SUITE -- CMD...: runs CMD inside SUITE's chroot (trixie, sid,
# experimental: scripts/rocm-chroot.sh makes and caches it), in this checkout,
# on the simulated GPU, against that suite's real ROCm runtimes.
#
# The checkout is bind-mounted at its own path, so paths mean the same inside
# and out. rtg, its examples and test programs are first built there with the
# suite's compilers into build-rocm/SUITE (incremental; the log is
# build-rocm/SUITE/build.log), exported as RTG_BUILD (and B, for tests/run.sh);
# RTG_SUITE names the suite (tests/run.sh then prefers NNN-name.expect.SUITE).
# The simulated GPU is active (tests/simgpu/env.sh): the thunk front end where
# ROCR loads libhsakmt (trixie), the kernel-driver front end preloaded where
# the thunk is built into ROCR (sid, experimental). SIMGPU_*, RTG_*, HSA_* and
# HIP_* variables of the caller pass through. Runs in a private mount
# namespace: nothing stays mounted. Needs root.
# Exit status: CMD's; 3 when the suite's packages cannot be fetched (a
# "skip: ..." line on stderr says why).
#   scripts/rocm-suite.sh sid -- tests/run.sh 060
#   scripts/rocm-suite.sh experimental -- sh -c 'rocminfo | grep gfx'
# A hung test is read with the suite's own libraries by a gdb of the
# chroot (the host's resolves the host's), installed there when needed:
#   scripts/rocm-suite.sh sid -- sh -c 'apt-get -o Acquire::Check-Valid-Until=false
#     update && apt-get install -y gdb && gdb -p PID'
set -eu
SUITE=${1:?usage: rocm-suite.sh SUITE -- CMD...}
shift
[ "${1:-}" = "--" ] && shift
[ $# -gt 0 ] || set -- sh
TOP=$(cd "$(dirname "$0")/.." && pwd)

ROOT=$("$TOP/scripts/rocm-chroot.sh" "$SUITE") || exit $?
B="build-rocm/$SUITE"
mkdir -p "$TOP/$B" "$ROOT$TOP"

# The caller's settings that steer the simulator, the tracer and the runtimes,
# quoted by the shell itself.
export -p | grep -E '^export (SIMGPU|RTG|HSA|HIP|AMD)_[A-Za-z0-9_]*=' |
  grep -vE '^export RTG_(BUILD|SUITE|ROCM_[A-Z_]*)=' >"$TOP/$B/caller.env" || true

# Inside the chroot: build, then activate the simulated GPU and run CMD.
inner='
set -e
cd "$TOP"
. "$B/caller.env"
t0=$(date +%s)
if ! nice make -j2 B="$B" build-tests >"$B/build.log" 2>&1; then
  tail -n 30 "$B/build.log" >&2
  echo "rocm-suite: build for $RTG_SUITE failed (log: $B/build.log)" >&2
  exit 1
fi
echo "rocm-suite: $RTG_SUITE built in $(($(date +%s) - t0)) s" >&2
export RTG_BUILD="$TOP/$B" B="$TOP/$B" SIMGPU="$TOP/$B/simgpu"
. tests/simgpu/env.sh
exec "$@"'

# shellcheck disable=SC2016
exec unshare -m --propagation private /bin/sh -c '
set -e
ROOT=$1 TOP=$2; shift 2
mount --bind /proc "$ROOT/proc"
mount --bind /sys "$ROOT/sys"
mount -t tmpfs -o mode=755 rtg-dev "$ROOT/dev"
for n in null:1:3 zero:1:5 full:1:7 random:1:8 urandom:1:9 tty:5:0; do
  name=${n%%:*} mm=${n#*:}
  mknod -m 666 "$ROOT/dev/$name" c "${mm%:*}" "${mm#*:}"
done
mkdir -p "$ROOT/dev/pts" "$ROOT/dev/shm"
mount --bind /dev/pts "$ROOT/dev/pts"
ln -s pts/ptmx "$ROOT/dev/ptmx"
mount -t tmpfs -o mode=1777 rtg-shm "$ROOT/dev/shm"
ln -s /proc/self/fd "$ROOT/dev/fd"
ln -s /proc/self/fd/0 "$ROOT/dev/stdin"
ln -s /proc/self/fd/1 "$ROOT/dev/stdout"
ln -s /proc/self/fd/2 "$ROOT/dev/stderr"
mount --bind "$TOP" "$ROOT$TOP"
# the host names its own address as on the host: libotf2 calls gethostid(),
# which without /etc/hostid looks the host name up, by DNS when /etc/hosts
# lacks it (no network here: seconds of timeouts for every OTF2 archive)
mount --bind /etc/hosts "$ROOT/etc/hosts"
[ -s "$ROOT/etc/hostid" ] || printf "\\001\\001\\000\\177" >"$ROOT/etc/hostid"
exec chroot "$ROOT" "$@"
' sh "$ROOT" "$TOP" /usr/bin/env -i HOME=/root TERM="${TERM:-dumb}" LANG=C.UTF-8 \
  PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  TOP="$TOP" B="$B" RTG_SUITE="$SUITE" /bin/sh -c "$inner" sh "$@"
