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

# ThreadSanitizer over the tracer (CI runs it): its unit tests, and a traced
# program whose 8 threads each submit to a queue of their own on the
# simulated GPU (e2e 032), built with SAN=thread in a directory of their
# own; the simulated GPU is not instrumented (tests/simgpu/simgpu.mk).
TSAN_B     ?= $(B)-tsan
TSAN_CASES := $(notdir $(TRACER_TEST_BINS)) test_tracer_hsa_table 032-tracer-threads
test-tsan: deps
	$(Q)$(MAKE) --no-print-directory SAN=thread B=$(TSAN_B) tsan-bins
	@B=$(TSAN_B) SAN=thread tests/run.sh $(TSAN_CASES)

tsan-bins: $(TRACER_TEST_BINS) $(B)/tests/test_tracer_hsa_table $(TRACER_SO) \
  $(filter $(SIMGPU_DIR)/%,$(ALL_TARGETS)) $(SIMGPU_DIR)/sg_stress
