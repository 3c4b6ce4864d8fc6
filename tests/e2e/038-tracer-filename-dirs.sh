# RTG_FILENAME's directories are made as mkdir -p does (0777 & ~umask);
# a trace that cannot be created where RTG_FILENAME says is one line on
# stderr and goes to the working directory under its own name; when that
# fails too, a second line and no trace, the application unharmed.  %pid%
# is the process id; a %word% that is no pattern is said and kept.
. "$TOP/tests/e2e/02-tracer.inc"
host=$(hostname)
names() { sed -e "s/$host/HOST/g" -e 's/[0-9][0-9]*/N/g'; }
echo "-- out/%hostname%/rank%rank%.txt, rank 1, umask 022 and 077"
(umask 022 && RTG_FILENAME=out/%hostname%/rank%rank%.txt OMPI_COMM_WORLD_RANK=1 traced "$SIMGPU/sg_agents" >/dev/null 2>err)
echo "status $?, messages $(grep -c '^rtg:' err)"
find out -type f | names
stat -c '%A %n' out "out/$host" | names
(umask 077 && RTG_FILENAME=deep/a/b/t traced "$SIMGPU/sg_agents" >/dev/null 2>err)
echo "status $?, messages $(grep -c '^rtg:' err)"
stat -c '%A %n' deep deep/a deep/a/b | names
kinds deep/a/b/t.* | grep rtg_
echo "-- a directory that cannot be made: the working directory instead"
RTG_FILENAME=/proc/no/such/t.txt traced "$SIMGPU/sg_agents" >/dev/null 2>err
echo "status $?"
names <err
ls t.txt.* | names
kinds t.txt.* | grep rtg_
rm -f t.txt.*
echo "-- a file where a directory should be"
touch afile
RTG_FILENAME=afile/t.txt traced "$SIMGPU/sg_agents" >/dev/null 2>err
echo "status $?"
names <err
ls t.txt.* | names
echo "-- neither can be created: no trace, the application runs on"
(cd /proc/self && RTG_FILENAME=/proc/no/t.txt traced "$SIMGPU/sg_agents" >"$OLDPWD/out.txt" 2>"$OLDPWD/err")
echo "status $?, $(wc -l <out.txt) lines of output"
names <err
echo "-- %pid%, and a %word% that is no pattern"
RTG_FILENAME=p%pid%/t%nope%.txt traced "$SIMGPU/sg_agents" >/dev/null 2>err
names <err
ls -d p*/* | names
pid=$(ls -d p* | sed 's/^p//')
ls "p$pid/t%nope%.txt.$pid" >/dev/null && echo "the pid twice"
