# simgpu: AMD barrier-value packets block their queue until
# (signal & mask) cond value, for EQ (with a mask), NE, LT and GTE, and hold
# back the kernel behind them (HIP >= 5.3 orders kernels after SDMA copies
# with them).
. "$TOP/tests/simgpu/env.sh"
"$SIMGPU/sg_barrier_value"
