# Broken HCC_PROFILE=2 logs into rtg-convert.
# The table is tests/data/broken/cases.txt (expected exit status and message
# per input), the inputs come from tests/data/broken/gen.sh; this file
# checks what was kept of each (events, slices, flows; records; lines
# skipped).
sh "$TOP/tests/data/broken/run.sh" convert cv-profile-
