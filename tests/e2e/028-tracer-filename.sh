# RTG_FILENAME: the pid is always appended; %hostname% and %rank% (from
# OMPI_COMM_WORLD_RANK, PMI_RANK or SLURM_PROCID) are replaced.
. "$TOP/tests/e2e/02-tracer.inc"
host=$(hostname)
mkdir out
RTG_FILENAME=out/t-%hostname%-r%rank%.txt OMPI_COMM_WORLD_RANK=3 traced "$SIMGPU/sg_agents" >/dev/null
ls out | sed "s/$host/HOST/; s/\.[0-9]*$/.PID/"
grep -c ' rank:3' out/*
rm -rf out; mkdir out
RTG_FILENAME=out/r%rank% SLURM_PROCID=7 traced "$SIMGPU/sg_agents" >/dev/null
RTG_FILENAME=out/r%rank% PMI_RANK=5 traced "$SIMGPU/sg_agents" >/dev/null
ls out | sed 's/\.[0-9]*$/.PID/' | sort
traced "$SIMGPU/sg_agents" >/dev/null
ls rtg_trace.txt.* | sed 's/\.[0-9]*$/.PID/'
pid_in_name=$(ls rtg_trace.txt.* | sed 's/.*\.//')
head -n 1 rtg_trace.txt.* | grep -c "^RTG: pid:$pid_in_name "
