# src/tracer: rtg_tracer.so, the HSA tools library.  Only OnLoad/OnUnload
# are exported (-fvisibility=hidden, exports.map).
# The wings, each using only those below it: process (the lifecycle:
# OnLoad, fork, exec, signals) over gpu (GPU ops) over hsa (the runtime's
# tables, API wrappers) and hip, roctx, mpi, all over core (records, buffers,
# writer, settings), which links on its own.  Files include each other as
# "wing/file.h" (no wing file may be named like an <hsa/...> header).
TRACER_WINGS := core hsa gpu hip roctx mpi process
TRACER_SRC := $(wildcard $(TRACER_WINGS:%=src/tracer/%/*.c))
TRACER_OBJ := $(TRACER_SRC:%.c=$(B)/obj/%.o)
TRACER_SO  := $(B)/rtg_tracer.so
TRACER_CORE_OBJ := $(filter $(B)/obj/src/tracer/core/%,$(TRACER_OBJ))
$(B)/obj/src/tracer/%.o: CFLAGS += -Isrc/tracer -fvisibility=hidden

$(TRACER_SO): $(TRACER_OBJ) $(COMMON_LIB) src/tracer/exports.map
	$(call say,LD,$@)
	$(Q)$(CC) -shared -o $@ $(TRACER_OBJ) $(COMMON_LIB) $(LDFLAGS) -ldl -Wl,-z,defs -Wl,--version-script=src/tracer/exports.map

ALL_TARGETS += $(TRACER_SO)
INSTALL_LIB += $(TRACER_SO)

# The C table mirror checked against the real (C++-only) hsa_api_trace.h,
# which includes "inc/hsa_ext_image.h": give it an inc -> /usr/include/hsa.
HSA_INC ?= /usr/include/hsa
$(B)/incfix/inc:
	$(Q)mkdir -p $(B)/incfix && ln -sfn $(HSA_INC) $@

$(B)/tests/test_tracer_hsa_table: tests/unit/tracer/hsa/test_tracer_hsa_table.cpp include/rtg/hsa_table.h | $(B)/incfix/inc
	$(call say,CXXLD,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CXX) $(CXXFLAGS) -I$(B)/incfix -o $@ $< $(LDFLAGS)

TEST_BINS += $(B)/tests/test_tracer_hsa_table $(TRACER_SO)

# The tracer's unit tests, in folders that mirror its wings
# (tests/unit/tracer/WING/test_*.c), see the tracer's files as it does.
TRACER_TEST_SRC  := $(wildcard $(TRACER_WINGS:%=tests/unit/tracer/%/test_*.c))
TRACER_TEST_BINS := $(addprefix $(B)/tests/,$(notdir $(TRACER_TEST_SRC:.c=)))
define TRACER_TEST_RULE
$(B)/tests/%: tests/unit/tracer/$(1)/%.c $(COMMON_LIB)
	$$(call say,CCLD,$$@)
	$$(Q)mkdir -p $$(dir $$@)
	$$(Q)$$(CC) $$(CFLAGS) -Itests/unit -Isrc/tracer -Itests/abi -o $$@ $$< $$(UNIT_EXTRA_$$*) \
	  $$(COMMON_LIB) $$(LDFLAGS) $$(UNIT_LIBS_DEFAULT) $$(UNIT_LIBS_$$*)
endef
$(foreach w,$(TRACER_WINGS),$(eval $(call TRACER_TEST_RULE,$(w))))
TEST_BINS += $(TRACER_TEST_BINS)

UNIT_LIBS_test_tracer_tables := -ldl
# the core links on its own
UNIT_EXTRA_test_emit := $(TRACER_CORE_OBJ)
UNIT_LIBS_test_emit  := -ldl
$(B)/tests/test_emit: $(TRACER_CORE_OBJ)
UNIT_EXTRA_test_stamp := $(TRACER_CORE_OBJ)
UNIT_LIBS_test_stamp  := -ldl
$(B)/tests/test_stamp: $(TRACER_CORE_OBJ)
UNIT_EXTRA_test_hold := $(TRACER_CORE_OBJ)
UNIT_LIBS_test_hold  := -ldl
$(B)/tests/test_hold: $(TRACER_CORE_OBJ)
UNIT_EXTRA_test_fmt := $(TRACER_CORE_OBJ)
UNIT_LIBS_test_fmt  := -ldl
$(B)/tests/test_fmt: $(TRACER_CORE_OBJ)
# the GPU wing's signal tracking, packet transforms and op life over a
# stand-in runtime (tests/unit/tracer/gpu/fake_hsa.c)
GPU_TEST_OBJ := $(TRACER_CORE_OBJ) $(patsubst %,$(B)/obj/src/tracer/gpu/%.o,sigtrack op_pool \
                  handle_table gpu_deps completion) $(B)/obj/tests/unit/tracer/gpu/fake_hsa.o
$(B)/obj/tests/unit/tracer/gpu/fake_hsa.o: CFLAGS += -Isrc/tracer -Itests/unit
define GPU_TEST
UNIT_EXTRA_$(1) := $$(GPU_TEST_OBJ)
UNIT_LIBS_$(1)  := -ldl
$$(B)/tests/$(1): $$(GPU_TEST_OBJ) tests/unit/tracer/gpu/fake_hsa.h
endef
$(foreach t,test_sigtrack test_gpu_deps test_completion,$(eval $(call GPU_TEST,$(t))))
# and the application's waits on raised signals
SIGNAL_HOOKS_OBJ := $(patsubst %,$(B)/obj/src/tracer/gpu/%.o,signal_hooks app_view async_handlers)
UNIT_EXTRA_test_signal_hooks := $(GPU_TEST_OBJ) $(SIGNAL_HOOKS_OBJ)
UNIT_LIBS_test_signal_hooks  := -ldl -lpthread
$(B)/tests/test_signal_hooks: $(GPU_TEST_OBJ) $(SIGNAL_HOOKS_OBJ) tests/unit/tracer/gpu/fake_hsa.h
UNIT_EXTRA_test_async_handlers := $(GPU_TEST_OBJ) $(SIGNAL_HOOKS_OBJ)
UNIT_LIBS_test_async_handlers  := -ldl -lpthread
$(B)/tests/test_async_handlers: $(GPU_TEST_OBJ) $(SIGNAL_HOOKS_OBJ) tests/unit/tracer/gpu/fake_hsa.h
# and a queue's waiter thread
UNIT_EXTRA_test_waiters := $(GPU_TEST_OBJ) $(B)/obj/src/tracer/gpu/waiters.o
UNIT_LIBS_test_waiters  := -ldl -lpthread
$(B)/tests/test_waiters: $(GPU_TEST_OBJ) $(B)/obj/src/tracer/gpu/waiters.o tests/unit/tracer/gpu/fake_hsa.h
# graph exec numbers alone (the test has its own thread state)
UNIT_EXTRA_test_hip_graph := $(B)/obj/src/tracer/hip/hip_graph.o
UNIT_LIBS_test_hip_graph  := -lpthread
$(B)/tests/test_hip_graph: $(B)/obj/src/tracer/hip/hip_graph.o
# the op tables alone (the test has its own rtg_hip)
UNIT_EXTRA_test_hip_ops := $(B)/obj/src/tracer/hip/hip_ops.o
$(B)/tests/test_hip_ops: $(B)/obj/src/tracer/hip/hip_ops.o
UNIT_EXTRA_test_filter_check := $(TRACER_CORE_OBJ)
UNIT_LIBS_test_filter_check  := -ldl
$(B)/tests/test_filter_check: $(TRACER_CORE_OBJ)
