# An existing output the user may write, in a directory they may not write:
# no temporary file can be made beside it, so it is rewritten in place
# (emptied first), without the temporary name other outputs get; a new file there
# cannot be made and says so.  Runs as an unprivileged user (nobody).
export LC_ALL=C
if [ "$(id -u)" != 0 ] || ! su nobody -s /bin/sh -c true 2>/dev/null; then
  echo "SKIP: needs root to run a command as nobody"
  exit 77
fi
mkdir rod
printf 'old text, longer than nothing at all\n' >rod/out.json
chmod 666 rod/out.json
chmod 755 rod
cp "$TOP/tests/data/convert/small.txt" small.txt
chmod 644 small.txt
chmod 755 .
C="$B/rtg-convert"
su nobody -s /bin/sh -c "'$C' -q -o rod/out.json small.txt; echo \"existing file: exit \$?\""
echo "rod/out.json: $(head -c 23 rod/out.json), valid JSON: $(python3 -c 'import json,sys; json.load(open(sys.argv[1])); print("yes")' rod/out.json)"
su nobody -s /bin/sh -c "'$C' -q -o rod/new.json small.txt; echo \"new file: exit \$?\"" 2>&1 | sed 's/^rtg-convert: //'
echo "files in rod: $(ls -A rod | tr '\n' ' ')"
