# tests: every tests/unit/test_*.c is one unit-test program linked with the
# common library; tests/run.sh runs them and the end-to-end cases.
UNIT_SRC  := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)
UNIT_LIBS_DEFAULT := -lm

$(B)/tests/%: tests/unit/%.c $(COMMON_LIB)
	$(call say,CCLD,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -Itests/unit -o $@ $< $(UNIT_EXTRA_$*) $(COMMON_LIB) $(LDFLAGS) $(UNIT_LIBS_DEFAULT) $(UNIT_LIBS_$*)

TEST_BINS += $(UNIT_BINS)
