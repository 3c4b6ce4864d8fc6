# tests/simgpu: the simulated AMD GPU (see tests/simgpu/README.md): one core
# behind two front ends, and the small programs its own tests run.
#   libhsakmt.so.1     the thunk ROCR <= 6.2 loads; built where hsakmt.h is
#                      (bookworm: /usr/include, trixie: /usr/include/hsakmt)
#   libsimgpu-view.so  the host view (hostview.h: device nodes, sysfs, /proc)
#                      LD_PRELOADed beside the thunk, for rocminfo
#   libsimgpu-kfd.so   the kernel driver (/dev/kfd, sysfs, libdrm) for ROCR
#                      >= 6.3, whose thunk is built in; LD_PRELOADed
SIMGPU_CORE_SRC := $(addprefix tests/simgpu/,aql_queue.c blit.c clock.c config.c engine.c \
                   gpu_facts.c hip_release.c kernel_names.c kernel_time.c monitor.c sdma_queue.c \
                   vm.c)
SIMGPU_CORE_OBJ := $(SIMGPU_CORE_SRC:%.c=$(B)/obj/%.o)
# the host view (hostview.h): both front ends serve it
SIMGPU_VIEW_SRC := tests/simgpu/files.c tests/simgpu/sysfs.c
SIMGPU_VIEW_OBJ := $(SIMGPU_VIEW_SRC:%.c=$(B)/obj/%.o)
SIMGPU_SRC := $(filter-out $(SIMGPU_CORE_SRC) $(SIMGPU_VIEW_SRC),$(wildcard tests/simgpu/*.c))
SIMGPU_OBJ := $(SIMGPU_SRC:%.c=$(B)/obj/%.o)
SIMGPU_DIR := $(B)/simgpu
SIMGPU_SO  := $(SIMGPU_DIR)/libhsakmt.so.1
SIMGPU_MAP := tests/simgpu/libhsakmt.map
SIMGPU_HSAKMT_INC := $(firstword $(wildcard /usr/include/hsakmt/hsakmt.h /usr/include/hsakmt.h))

$(SIMGPU_OBJ): CFLAGS += $(if $(filter /usr/include/hsakmt/%,$(SIMGPU_HSAKMT_INC)),-I/usr/include/hsakmt)

$(SIMGPU_SO): $(SIMGPU_OBJ) $(SIMGPU_CORE_OBJ) $(SIMGPU_MAP)
	$(call say,LD,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) -shared -o $@ $(SIMGPU_OBJ) $(SIMGPU_CORE_OBJ) $(LDFLAGS) -Wl,-soname,libhsakmt.so.1 \
	  -Wl,--version-script=$(SIMGPU_MAP) -Wl,-z,defs

# The host view alone, LD_PRELOADed beside the thunk (whose own symbols are
# versioned, so it cannot stand in for libc's); the configuration and the
# facts of a gfx target are all of the core it needs.
SIMGPU_VIEW_SO := $(SIMGPU_DIR)/libsimgpu-view.so
SIMGPU_VIEW_CORE_OBJ := $(addprefix $(B)/obj/tests/simgpu/,config.o gpu_facts.o)

$(SIMGPU_VIEW_SO): $(SIMGPU_VIEW_OBJ) $(SIMGPU_VIEW_CORE_OBJ) tests/simgpu/view.map
	$(call say,LD,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) -shared -o $@ $(SIMGPU_VIEW_OBJ) $(SIMGPU_VIEW_CORE_OBJ) $(LDFLAGS) -ldl \
	  -Wl,--version-script=tests/simgpu/view.map -Wl,-z,defs

SIMGPU_KFD_SRC := $(wildcard tests/simgpu/kfd/*.c)
SIMGPU_KFD_OBJ := $(SIMGPU_KFD_SRC:%.c=$(B)/obj/%.o)
SIMGPU_KFD_SO  := $(SIMGPU_DIR)/libsimgpu-kfd.so

$(SIMGPU_KFD_OBJ): CFLAGS += -Itests/simgpu -idirafter tests/simgpu/kfd/compat

$(SIMGPU_KFD_SO): $(SIMGPU_KFD_OBJ) $(SIMGPU_VIEW_OBJ) $(SIMGPU_CORE_OBJ) tests/simgpu/kfd/kfd.map
	$(call say,LD,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) -shared -o $@ $(SIMGPU_KFD_OBJ) $(SIMGPU_VIEW_OBJ) $(SIMGPU_CORE_OBJ) $(LDFLAGS) -ldl \
	  -Wl,--version-script=tests/simgpu/kfd/kfd.map -Wl,-z,defs

# Under SAN=thread the simulated GPU is built without ThreadSanitizer, as
# the hardware it stands for is not instrumented: the host orders its work
# with it through the runtime (doorbells, signals), which TSan cannot see
# either, so it would report every packet.  The host code is checked.
simgpu_comma := ,
ifneq ($(filter thread,$(subst $(simgpu_comma), ,$(SAN))),)
$(SIMGPU_OBJ) $(SIMGPU_CORE_OBJ) $(SIMGPU_VIEW_OBJ) $(SIMGPU_KFD_OBJ) $(SIMGPU_SO) $(SIMGPU_VIEW_SO) \
  $(SIMGPU_KFD_SO): SANFLAGS := -fno-omit-frame-pointer
endif

# Test programs (tests/simgpu/progs/sg_*.c): plain HSA programs that run on
# the simulated GPU, plus one HIP program and a code object built from OpenCL C.
SIMGPU_PROG_SRC := $(wildcard tests/simgpu/progs/sg_*.c)
SIMGPU_PROGS    := $(SIMGPU_PROG_SRC:tests/simgpu/progs/%.c=$(SIMGPU_DIR)/%)
# (their helpers build on the examples' HSA plumbing, examples/hsa_common.c)
SIMGPU_PROG_LIB := $(B)/obj/tests/simgpu/progs/common.o $(B)/obj/examples/hsa_common.o
SIMGPU_HSACO    := $(SIMGPU_DIR)/kernels.hsaco
SIMGPU_HIP      := $(SIMGPU_DIR)/sg_hip
# clang-14 on bookworm (its default clang), the default clang elsewhere
CLANG_CL        ?= $(firstword $(shell command -v clang-14 clang 2>/dev/null) clang)
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

# The kernel-driver front end's own test program: ioctls without ROCR.
SIMGPU_KFD_TEST := $(SIMGPU_DIR)/kfd_ioctls
$(SIMGPU_KFD_TEST): tests/simgpu/progs/kfd_ioctls.c
	$(call say,CCLD,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -idirafter tests/simgpu/kfd/compat -o $@ $< $(LDFLAGS)

SIMGPU_HAS_KFD := $(wildcard /usr/include/linux/kfd_ioctl.h)
ALL_TARGETS += $(if $(SIMGPU_HSAKMT_INC),$(SIMGPU_SO) $(SIMGPU_VIEW_SO)) \
               $(if $(SIMGPU_HAS_KFD),$(SIMGPU_KFD_SO))
TEST_BINS   += $(if $(SIMGPU_HAS_KFD),$(SIMGPU_KFD_TEST))
TEST_BINS   += $(SIMGPU_PROGS) $(SIMGPU_HSACO) $(SIMGPU_HIP)
