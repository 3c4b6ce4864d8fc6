# src/tracer/launcher.mk: the rtg-trace launcher, and the HIP/ROCTx ABI test
# fixtures (stand-in HIP and roctx libraries).
RTG_TRACE     := $(B)/rtg-trace
RTG_TRACE_OBJ := $(patsubst %.c,$(B)/obj/%.o,$(filter-out %/register.c,$(wildcard src/tracer/rtg_trace/*.c)))

$(RTG_TRACE): $(RTG_TRACE_OBJ)
	$(call say,LD,$@)
	$(Q)$(CC) -o $@ $(RTG_TRACE_OBJ) $(LDFLAGS)

ALL_TARGETS += $(RTG_TRACE)
INSTALL_BIN += $(RTG_TRACE)

# rtg_register.so: preloaded on ROCm 6.2+ to receive the dispatch tables
# from rocprofiler-register (src/tracer/rtg_trace/register.c).
RTG_REGISTER := $(B)/rtg_register.so
$(RTG_REGISTER): src/tracer/rtg_trace/register.c
	$(call say,CCLD,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -shared -o $@ $< $(LDFLAGS)
ALL_TARGETS += $(RTG_REGISTER)
INSTALL_LIB += $(RTG_REGISTER)

# --- ABI tests: the tracer's core with its HIP and ROCTx wings (no HSA
# side), driven by stand-in libraries that call it as each ROCm release does.
HIPSIDE_OBJ := $(TRACER_CORE_OBJ) $(patsubst %.c,$(B)/obj/%.o,$(wildcard src/tracer/hip/*.c \
                 src/tracer/roctx/*.c src/tracer/process/api_tables.c)) \
               $(B)/obj/tests/abi/tracer_core.o
ABI_DIR     := $(B)/abi
ABI_LIBS    := $(ABI_DIR)/libamdhip64.so.6 $(ABI_DIR)/roctx52/libroctx64.so.1 \
               $(ABI_DIR)/roctx53/libroctx64.so.4 $(ABI_DIR)/hip62/libamdhip64.so.6 \
               $(ABI_DIR)/roctx62/libroctx64.so.4

# stand-ins of ROCm 6.2 that hand their tables to rocprofiler_set_api_table
$(ABI_DIR)/hip62/libamdhip64.so.6: tests/abi/fake_hip62.c
	$(call say,CCLD,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -shared -Wl,-soname,libamdhip64.so.6 -o $@ $< $(LDFLAGS) -ldl

$(ABI_DIR)/roctx62/libroctx64.so.4: tests/abi/fake_roctx.c
	$(call say,CCLD,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -DFAKE_ROCTX_62 -shared -Wl,-soname,libroctx64.so.4 -o $@ $< $(LDFLAGS) -ldl

$(ABI_DIR)/libamdhip64.so.6: tests/abi/fake_hip.c
	$(call say,CCLD,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -shared -Wl,-soname,libamdhip64.so.6 -o $@ $< $(LDFLAGS)

$(ABI_DIR)/roctx52/libroctx64.so.1: tests/abi/fake_roctx.c
	$(call say,CCLD,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -DFAKE_ROCTX_52 -shared -Wl,-soname,libroctx64.so.1 -o $@ $< $(LDFLAGS)

$(ABI_DIR)/roctx53/libroctx64.so.4: tests/abi/fake_roctx.c
	$(call say,CCLD,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -shared -Wl,-soname,libroctx64.so.4 -o $@ $< $(LDFLAGS)

$(B)/obj/tests/abi/tracer_core.o: CFLAGS += -Isrc/tracer
UNIT_EXTRA_test_hip_abi   := $(HIPSIDE_OBJ)
UNIT_LIBS_test_hip_abi    := -ldl
UNIT_EXTRA_test_roctx_abi := $(HIPSIDE_OBJ)
UNIT_LIBS_test_roctx_abi  := -ldl
# the .symtab reader of the backtrace symbolizer, alone
UNIT_EXTRA_test_backtrace_elf := $(B)/obj/src/tracer/core/backtrace_elf.o
UNIT_LIBS_test_backtrace_elf  := -ldl
$(B)/tests/test_backtrace_elf: $(B)/obj/src/tracer/core/backtrace_elf.o

# the argument decoding, as the application's and the writer's threads use it
UNIT_EXTRA_test_hip_args := $(HIPSIDE_OBJ)
UNIT_LIBS_test_hip_args  := -ldl
$(B)/tests/test_hip_args: $(HIPSIDE_OBJ)

UNIT_EXTRA_test_hip_table_abi := $(HIPSIDE_OBJ)
UNIT_LIBS_test_hip_table_abi  := -ldl
$(B)/tests/test_hip_abi $(B)/tests/test_roctx_abi $(B)/tests/test_hip_table_abi: $(HIPSIDE_OBJ) \
  $(ABI_LIBS) $(RTG_REGISTER)

# A HIP program with a known call sequence, threads and fork, for the
# end-to-end tests on simgpu (hipcc is not given sanitizer flags, as in
# tests/simgpu/simgpu.mk).
HIP_CALLS := $(ABI_DIR)/hip_calls
$(HIP_CALLS): tests/abi/hip_calls.cpp
	$(call say,HIPCC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(HIPCC) --offload-arch=$(or $(OFFLOAD_ARCH),gfx90a) -O2 -w -pthread -o $@ $<

TEST_BINS += $(ABI_LIBS) $(HIP_CALLS)

# scripts/bench-hip.sh's program
HIP_BENCH := $(ABI_DIR)/hip_bench
$(HIP_BENCH): tests/abi/hip_bench.cpp
	$(call say,HIPCC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(HIPCC) --offload-arch=$(or $(OFFLOAD_ARCH),gfx90a) -O2 -w -o $@ $<
TEST_BINS += $(HIP_BENCH)

# scripts/bench-hip.sh's tracer-only benchmark: stand-in HIP libraries and
# the real rtg_tracer.so, no GPU
HIP_BENCH_FAKE := $(ABI_DIR)/hip_bench_fake
$(HIP_BENCH_FAKE): tests/abi/hip_bench_fake.c
	$(call say,CCLD,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -o $@ $< $(LDFLAGS) -ldl
TEST_BINS += $(HIP_BENCH_FAKE)
