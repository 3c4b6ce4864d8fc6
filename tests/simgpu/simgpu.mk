# tests/simgpu: the simulated AMD GPU, a replacement libhsakmt.so.1 (see
# tests/simgpu/README.md), and the small programs its own tests run.
SIMGPU_SRC := $(wildcard tests/simgpu/*.c)
SIMGPU_OBJ := $(SIMGPU_SRC:%.c=$(B)/obj/%.o)
SIMGPU_DIR := $(B)/simgpu
SIMGPU_SO  := $(SIMGPU_DIR)/libhsakmt.so.1
SIMGPU_MAP := tests/simgpu/libhsakmt.map

$(SIMGPU_SO): $(SIMGPU_OBJ) $(SIMGPU_MAP)
	$(call say,LD,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) -shared -o $@ $(SIMGPU_OBJ) $(LDFLAGS) -Wl,-soname,libhsakmt.so.1 \
	  -Wl,--version-script=$(SIMGPU_MAP) -Wl,-z,defs

# Test programs (tests/simgpu/progs/sg_*.c): plain HSA programs that run on
# the simulated GPU, plus one HIP program and a code object built from OpenCL C.
SIMGPU_PROG_SRC := $(wildcard tests/simgpu/progs/sg_*.c)
SIMGPU_PROGS    := $(SIMGPU_PROG_SRC:tests/simgpu/progs/%.c=$(SIMGPU_DIR)/%)
# (their helpers build on the examples' HSA plumbing, examples/hsa_common.c)
SIMGPU_PROG_LIB := $(B)/obj/tests/simgpu/progs/common.o $(B)/obj/examples/hsa_common.o
SIMGPU_HSACO    := $(SIMGPU_DIR)/kernels.hsaco
SIMGPU_HIP      := $(SIMGPU_DIR)/sg_hip
CLANG_CL        ?= clang-14
HIPCC           ?= hipcc
OFFLOAD_ARCH    ?= gfx90a

$(SIMGPU_DIR)/sg_%: tests/simgpu/progs/sg_%.c $(SIMGPU_PROG_LIB)
	$(call say,CCLD,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -Itests/simgpu -Itests/simgpu/progs -o $@ $< $(SIMGPU_PROG_LIB) \
	  $(LDFLAGS) -lhsa-runtime64 -ldl

EXTRA_CFLAGS_tests/simgpu/progs/ := -Itests/simgpu

$(SIMGPU_HSACO): tests/simgpu/progs/kernels.cl
	$(call say,CLANG,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CLANG_CL) -x cl -Xclang -finclude-default-header -target amdgcn-amd-amdhsa \
	  -mcpu=$(OFFLOAD_ARCH) -nogpulib -o $@ $<

# hipcc (clang) is not given the sanitizer flags: its runtime would clash with
# gcc's; the tests preload gcc's libasan instead (tests/simgpu/env.sh).
$(SIMGPU_HIP): tests/simgpu/progs/sg_hip.cpp examples/hip_check.h
	$(call say,HIPCC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(HIPCC) --offload-arch=$(OFFLOAD_ARCH) -O2 -w -o $@ $<

ALL_TARGETS += $(SIMGPU_SO)
TEST_BINS   += $(SIMGPU_PROGS) $(SIMGPU_HSACO) $(SIMGPU_HIP)
