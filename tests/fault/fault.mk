# tests/fault: the programs of the tracer's fault tests (tests/e2e/180-189),
# HSA programs for the simulated GPU built like tests/progs (with simgpu's
# test helpers).  The cases build them themselves when this fragment is not
# included (tests/e2e/18-fault.inc).
FAULT_PROGS := $(B)/fault/fault_prog

$(B)/fault/%: tests/fault/%.c $(SIMGPU_PROG_LIB)
	$(call say,CCLD,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -Itests/simgpu -Itests/simgpu/progs -o $@ $< $(SIMGPU_PROG_LIB) \
	  $(LDFLAGS) -lhsa-runtime64 -ldl

TEST_BINS += $(FAULT_PROGS)
