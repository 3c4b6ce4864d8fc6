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

# An object loaded after the tracer (tp_exec late).
$(B)/progs/libtp_late.so: tests/progs/libtp_late.c
	$(call say,CCLD,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -shared -fPIC -o $@ $< $(LDFLAGS)
$(B)/progs/tp_exec: | $(B)/progs/libtp_late.so

TEST_BINS += $(B)/progs/libtp_late.so

# A stand-in with HIP's file name that maps managed memory as HIP 6.4 does
# (tp_managed_os).
$(B)/progs/libamdhip64.so.tp: tests/progs/libtp_hipmmap.c
	$(call say,CCLD,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -shared -fPIC -o $@ $< $(LDFLAGS) -lhsa-runtime64
$(B)/progs/tp_managed_os: | $(B)/progs/libamdhip64.so.tp

TEST_BINS += $(B)/progs/libamdhip64.so.tp

# HIP test programs (tp_hip_*.cpp), built with hipcc like the HIP examples.
TP_HIP_SRC   := $(wildcard tests/progs/tp_hip_*.cpp)
TP_HIP_PROGS := $(TP_HIP_SRC:tests/progs/%.cpp=$(B)/progs/%)

$(B)/progs/tp_hip_%: tests/progs/tp_hip_%.cpp examples/hip_check.h
	$(call say,HIPCC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(EX_HIPCC) --offload-arch=$(EX_ARCH) $(TP_HIP_ARCHS_$*) -O2 -w -o $@ $<

# tp_hip_kres also for gfx908 (AGPRs in a file of their own), beside gfx90a
# (one file for both): e2e 081 checks both register files.
TP_HIP_ARCHS_kres := --offload-arch=gfx908

TEST_BINS += $(TP_HIP_PROGS)

# MPI test programs (tests/progs/mpi/tpmpi_*.c), built with mpicc where
# it is installed (the cases that run them skip where it is not).
MPICC ?= $(shell command -v mpicc 2>/dev/null)
ifneq ($(MPICC),)
TPMPI_SRC   := $(wildcard tests/progs/mpi/tpmpi_*.c)
TPMPI_PROGS := $(TPMPI_SRC:tests/progs/mpi/%.c=$(B)/progs/%)

$(B)/progs/tpmpi_%: tests/progs/mpi/tpmpi_%.c tests/progs/tp_common.h $(SIMGPU_PROG_LIB)
	$(call say,MPICC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)OMPI_CC=$(CC) $(MPICC) $(CFLAGS) -Itests/simgpu -Itests/simgpu/progs -Itests/progs -o $@ \
	  $< $(SIMGPU_PROG_LIB) $(LDFLAGS) -lhsa-runtime64 -ldl

TEST_BINS += $(TPMPI_PROGS)
endif
