# tests/progs: small HSA programs the tracer's end-to-end tests and its
# benchmark run on the simulated GPU (they reuse the simgpu test helpers).
TP_SRC   := $(wildcard tests/progs/tp_*.c)
TP_PROGS := $(TP_SRC:tests/progs/%.c=$(B)/progs/%)

$(B)/progs/tp_%: tests/progs/tp_%.c tests/progs/tp_common.h $(SIMGPU_PROG_LIB)
	$(call say,CCLD,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -Itests/simgpu -Itests/simgpu/progs -o $@ $< $(SIMGPU_PROG_LIB) \
	  $(LDFLAGS) -lhsa-runtime64 -ldl

TEST_BINS += $(TP_PROGS)
