#!/usr/bin/env python3
"""Writes seed002.log: a hand-built HCC_PROFILE=2 log whose rpt report has
exactly the rows of the rpt example in rocm-timeline-generator's README
(shared/seeds/002_*.txt).  Each row of that table fixes a name's call count,
total, min and max; the durations below are chosen to give exactly those
(one min, one max, the rest split evenly in whole ns).  The last record is
the ROI_STOP barrier (#0.0.1, line 168, 69.178381 ms after the first), whose
own time is not counted, as in the original.  Lines use the original
tracer's exact profile: layout.  Run: python3 gen-seed002.py > seed002.log
"""
import random

def spread(n, total, lo, hi):
    """n values: one lo, one hi, the rest (in whole ns) summing to total."""
    rest, k = total - lo - hi, n - 2
    base, extra = divmod(rest, k)
    return [lo, hi] + [base + 1] * extra + [base] * (k - extra)

fills = spread(66, 308300, 3400, 7000)
barriers = spread(99, 206900, 1800, 2900)
gaps = (spread(60, 241100, 3000, 6700) + [10400, 17900, 11450, 11450] +
        spread(57, 1922500, 25100, 49600) + spread(10, 622200, 50600, 80800) +
        spread(32, 17488300, 126100, 798000) + [1465700, 46555700])
assert len(gaps) == 165 and sum(gaps) == 68346700

rng = random.Random(2)
rng.shuffle(gaps)
# 166 commands: a fill first (the ROI start), then fills and barriers mixed,
# the one copyBuffer kernel in the middle.
cmds = [("kernel", "__amd_rocclr_fillBuffer.kd", fills[0])]
rest = [("kernel", "__amd_rocclr_fillBuffer.kd", d) for d in fills[1:]]
rest += [("barrier", "", d) for d in barriers]
rng.shuffle(rest)
rest.insert(80, ("kernel", "__amd_rocclr_copyBuffer.kd", 313000))
cmds += rest
assert len(cmds) == 166

T0 = 1234567890123
recs = []  # (start, stop, type, name, op, extra)
t = T0
seq = {}
for i, (typ, name, dur) in enumerate(cmds):
    if i:
        t += gaps[i - 1]
    q = 1 if typ == "kernel" else 2
    seq[q] = seq.get(q, -1) + 1
    recs.append((t, t + dur, typ, name, "#0.%d.%d" % (q, seq[q]), ""))
    t += dur
assert t - T0 == 69174900
# the copy (DATA): 16384 bytes in 7.4 us
cs = T0 + 5000000
bw = 16384 / 7400 * (1000 / 1024) * (1000 / 1024)
recs.append((cs, cs + 7400, "copy", "HostToDevice", "#0.0.0",
             "\t16384 bytes;\t%g MB;\t%g GB/s;" % (16384 / 1024 / 1024, bw)))
# the ROI_STOP barrier
recs.append((T0 + 69178381, T0 + 69186381, "barrier", "", "#0.0.1", ""))
recs.sort(key=lambda r: r[0])
for (start, stop, typ, name, op, extra) in recs:
    print("profile: %7s;\t%40s;\t%6.1f us;\t%d;\t%d;\t%s;%s" %
          (typ, name, (stop - start) / 1000.0, start, stop, op, extra))
