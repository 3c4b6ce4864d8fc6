# examples: real programs the demo and the tests trace. Kernels are built from
# source here: OpenCL C with clang for the HSA programs, HIP with hipcc.
EX_DIR       := $(B)/examples
EX_HSA       := $(filter-out hsa_common,$(patsubst examples/%.c,%,$(wildcard examples/hsa_*.c)))
# hip_roctx links libroctx64, which Debian has from 13 on (libroctx-dev)
EX_ROCTX_H   := $(wildcard /usr/include/roctracer/roctx.h)
EX_HIP       := $(filter-out $(if $(EX_ROCTX_H),,hip_roctx),\
                  $(patsubst examples/%.cpp,%,$(wildcard examples/hip_*.cpp)))
EX_HSA_BINS  := $(EX_HSA:%=$(EX_DIR)/%)
EX_HIP_BINS  := $(EX_HIP:%=$(EX_DIR)/%)
EX_HSACO     := $(EX_DIR)/vadd.hsaco
EX_COMMON    := $(B)/obj/examples/hsa_common.o
EX_CLANG     ?= $(firstword $(shell command -v clang-14 clang 2>/dev/null) clang)
EX_HIPCC     ?= hipcc
EX_ARCH      ?= gfx90a

$(EX_DIR)/hsa_%: examples/hsa_%.c $(EX_COMMON) | $(EX_HSACO)
	$(call say,CCLD,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -o $@ $< $(EX_COMMON) $(LDFLAGS) -lhsa-runtime64 -ldl

$(EX_DIR)/%.hsaco: examples/kernels/%.cl
	$(call say,CLANG,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(EX_CLANG) -x cl -Xclang -finclude-default-header -target amdgcn-amd-amdhsa \
	  -mcpu=$(EX_ARCH) -nogpulib -o $@ $<

# hipcc gets no sanitizer flags: clang's runtime would clash with gcc's (the
# tests preload gcc's libasan, see tests/simgpu/env.sh).
$(EX_DIR)/hip_%: examples/hip_%.cpp examples/hip_check.h
	$(call say,HIPCC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(EX_HIPCC) --offload-arch=$(EX_ARCH) -O2 -w -o $@ $< $(if $(findstring roctx,$@),-lroctx64)

EXAMPLES := $(EX_HSACO) $(EX_HSA_BINS) $(EX_HIP_BINS)
ALL_TARGETS += $(EXAMPLES)
