#!/bin/sh
# Makes the demangler's corpus, tests/data/demangle/kernels.tsv.xz: every
# kernel name of Debian's ROCm libraries (trixie, sid, experimental), with
# the text llvm-cxxfilt shows for it (see tests/data/demangle/README).
#   scripts/demangle-corpus.sh WORKDIR [CXXFILT]
# WORKDIR holds the downloads (several GB); CXXFILT is the command that
# demangles stdin line by line (default: the newest llvm-cxxfilt-NN on PATH),
# e.g. "chroot /var/cache/rtg-rocm/experimental llvm-cxxfilt-22".
# Needs Debian's archive (apt-get download with a private apt setup).
set -eu
work=${1:?usage: $0 WORKDIR [CXXFILT]}
top=$(cd "$(dirname "$0")/.." && pwd)
cxxfilt=${2:-$(for v in $(seq 40 -1 10); do command -v "llvm-cxxfilt-$v" && break; done)}
[ -n "$cxxfilt" ] || { echo "no llvm-cxxfilt" >&2; exit 1; }
mkdir -p "$work/apt/lists/partial" "$work/apt/cache/archives/partial" "$work/debs" "$work/names"
work=$(cd "$work" && pwd)
key=/usr/share/keyrings/debian-archive-keyring.gpg
for s in trixie sid experimental; do
  echo "deb [signed-by=$key] http://deb.debian.org/debian $s main"
done >"$work/apt/sources.list"
cat >"$work/apt/apt.conf" <<EOF
Dir::Etc::SourceList "$work/apt/sources.list";
Dir::Etc::SourceParts "/nonexistent";
Dir::State::Lists "$work/apt/lists";
Dir::Cache "$work/apt/cache";
Dir::State::status "/dev/null";
APT::Architecture "amd64";
Acquire::Languages "none";
EOF
export APT_CONFIG="$work/apt/apt.conf"
apt-get update -qq

# the libraries with kernels (all their names are kept) and the tests of
# the header-only rocPRIM, hipCUB, rocThrust and two more (every 20th name
# is kept), every version the three suites have
all_pkgs="librocrand1 libhiprand1 librocrand1-tests libhiprand1-tests librocblas0 librocblas4
librocblas5 librocfft0 librocfft0-tests librocsparse0 librocsparse1 librocsolver0 librccl1
libhipsparselt0"
sampled_pkgs="librocprim-tests libhipcub-tests librocthrust-tests libhipblaslt1-tests
librocblas4-tests"
cd "$work/debs"
for p in $all_pkgs $sampled_pkgs; do
  for v in $(apt-cache show "$p" 2>/dev/null | awk '/^Version:/ {print $2}' | sort -u); do
    apt-get download -qq "$p=$v"
  done
done

# a kernel is named twice: HIP registers it by its mangled name (in the
# host library's .rodata) and its code object has NAME.kd, its descriptor
for deb in "$work"/debs/*.deb; do
  out="$work/names/$(basename "$deb" .deb).txt"
  [ -e "$out" ] && continue
  x="$work/x" && rm -rf "$x" && mkdir "$x" && dpkg-deb -x "$deb" "$x"
  find "$x" -type f | while read -r f; do
    [ "$(head -c4 "$f" | od -An -c | tr -d ' ')" = '177ELF' ] || continue
    objcopy -O binary --only-section=.rodata "$f" "$work/ro.bin" 2>/dev/null &&
      strings -a -n 4 "$work/ro.bin" | grep -E '^_Z[A-Za-z0-9_.$]+$' || true
    strings -a -n 6 "$f" | grep -E '^_Z[A-Za-z0-9_.$]+\.kd$' | sed 's/\.kd$//' || true
  done | LC_ALL=C sort -u >"$out.tmp"
  mv "$out.tmp" "$out"
  echo "$(basename "$deb" .deb): $(wc -l <"$out") names"
done
rm -rf "$work/x" "$work/ro.bin"

# names llvm-cxxfilt leaves mangled are not kernels (other strings)
names_of() {
  for p in $1; do cat "$work/names/${p}_"*.txt; done | LC_ALL=C sort -u
}
names_of "$all_pkgs" >"$work/all.txt"
names_of "$sampled_pkgs" | LC_ALL=C comm -23 - "$work/all.txt" | awk 'NR % 20 == 1' >"$work/sampled.txt"
LC_ALL=C sort -u "$work/all.txt" "$work/sampled.txt" >"$work/corpus.txt"
$cxxfilt <"$work/corpus.txt" >"$work/corpus.llvm.txt"
paste "$work/corpus.txt" "$work/corpus.llvm.txt" | awk -F'\t' '$1 != $2' |
  xz -9e >"$top/tests/data/demangle/kernels.tsv.xz"
echo "$(xz -dc "$top/tests/data/demangle/kernels.tsv.xz" | wc -l) names, by $($cxxfilt --version | grep -i version | head -1)"
