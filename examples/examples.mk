# examples: programs the demo and the tests trace.
EXAMPLES :=
ALL_TARGETS += $(EXAMPLES)
