#!/bin/sh
# Prints, for each ROCm release, the HIP tracing facts rtg needs, measured by
# compiling that release's own headers (ROCm/HIP include/ + the amd_detail
# headers of ROCm/hipamd (<= 5.5) or ROCm/clr (>= 5.6)):
#   release  HIP_API_ID_LAST  sizeof(hip_api_data_t)  offsetof(args)  and
#   the offset of each argument member rtg decodes.
# The output is where the release records of src/tracer/hip/hip_ops.c and the
# argument offsets of hip_args.c come from; rerun it to check them.  Needs
# the bare mirrors given as HIP, HIPAMD, CLR (git dirs).
#   tests/abi/hip_layouts.sh rocm-5.2.3 rocm-6.2.0 ... deb:6.4.3 deb:7.2.4
HIP=${HIP:-/work/.mirror/ROCm+HIP/repo}
HIPAMD=${HIPAMD:-/work/.mirror/ROCm+hipamd/repo}
CLR=${CLR:-/work/.mirror/ROCm+clr/repo}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for tag in "$@"; do
  d="$tmp/$tag"
  mkdir -p "$d/inc"
  case $tag in
  deb:*) # Debian's libamdhip64-dev_VERSION*.deb in HIP_DEBS (see gen-hip-ops.sh)
    deb=$(ls "${HIP_DEBS:-/work/proto-matrix/debs}"/libamdhip64-dev_"${tag#deb:}"*.deb | head -n 1)
    dpkg-deb -x "$deb" "$d/deb" || continue
    if g++ -std=c++17 -w -D__HIP_PLATFORM_AMD__ -DRTG_REL="\"${tag#deb:}\"" \
        -I"$d/deb/usr/include" -o "$d/probe" "$here/hip_layout_probe.cpp" 2>"$d/err"; then
      "$d/probe"
    else
      echo "# $tag: probe failed: $(head -3 "$d/err" | tr '\n' ' ')"
    fi
    continue
    ;;
  esac
  git -C "$HIP" archive "$tag" include | tar -x -C "$d/inc" || continue
  if git -C "$HIPAMD" rev-parse -q --verify "$tag^{commit}" >/dev/null &&
     git -C "$HIPAMD" cat-file -e "$tag:include/hip/amd_detail/hip_prof_str.h" 2>/dev/null; then
    git -C "$HIPAMD" archive "$tag" include | tar -x -C "$d/amd"  2>/dev/null ||
      { mkdir -p "$d/amd" && git -C "$HIPAMD" archive "$tag" include | tar -x -C "$d/amd"; }
  else
    mkdir -p "$d/amd"
    git -C "$CLR" archive "$tag" hipamd/include | tar -x -C "$d/amd"
    mv "$d/amd/hipamd/include" "$d/amd/include"
  fi
  # hip_version.h is generated at build time; the probe needs only its macros.
  v=${tag#rocm-}
  maj=${v%%.*}; rest=${v#*.}; min=${rest%%.*}
  printf '#define HIP_VERSION_MAJOR %s\n#define HIP_VERSION_MINOR %s\n#define HIP_VERSION_PATCH 0\n#define HIP_VERSION (%s*10000000+%s*100000)\n' \
    "$maj" "$min" "$maj" "$min" >"$d/inc/include/hip/hip_version.h"
  if g++ -std=c++17 -w -D__HIP_PLATFORM_AMD__ -DRTG_REL="\"$v\"" \
      -I"$d/amd/include" -I"$d/inc/include" -o "$d/probe" "$here/hip_layout_probe.cpp" 2>"$d/err"; then
    "$d/probe"
  else
    echo "# $v: probe failed: $(head -3 "$d/err" | tr '\n' ' ')"
  fi
done
