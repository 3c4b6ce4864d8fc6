# Options and library errors said in one clear line (issue 25): --start
# after --end is a usage error (exit 2), in microseconds or in percent; an
# --otf2 path that cannot be made, or an archive that cannot be written,
# gives one line of why, not the OTF2 library's dozens of lines, and leaves no
# output.
export LC_ALL=C
C="$B/rtg-convert"
T="$TOP/tests/data/convert/gen.txt"
printf '{"kept":1}\n' >out.json
cp out.json out.orig
for w in "--start 50% --end 10%" "--start 2000 --end 1000" "--start 10% --end 50%"; do
  # shellcheck disable=SC2086
  "$C" -q $w -o out.json "$T" 2>err
  echo "$w: exit $?, out.json $(cmp -s out.json out.orig && echo kept || echo written)"
  sed 's/^/  /' err
  cp out.orig out.json
done
# an --otf2 path under a missing directory, or naming a file
printf 'a file\n' >afile
for d in no/such/dir afile; do
  "$C" -q --otf2 "$d" -o out.json "$T" 2>err
  echo "--otf2 $d: exit $?, $(wc -l <err) line, out.json $(cmp -s out.json out.orig && echo kept || echo written)"
  sed 's/^/  /' err
done
# the archive cannot be written: a full file system (a 64 KiB tmpfs; the
# OTF2 library does not see a file size limit, so it takes a real one)
mkdir full
if ! mount -t tmpfs -o size=64k tmpfs full 2>/dev/null; then
  echo "SKIP: cannot mount a tmpfs here (not root?)"
  exit 77
fi
"$C" -q --otf2 full/o2 "$TOP/tests/data/convert/real/hip_streams_2gpu.txt" 2>err
"$C" -q --otf2 full/o2 "$TOP/tests/data/convert/real/hip_streams_2gpu.txt" 2>err
echo "--otf2 on a full file system: exit $?, $(wc -l <err) line"
sed 's/^/  /' err
echo "the first archive after it: $(ls -A full/o2 | tr '\n' ' ')"
umount full
