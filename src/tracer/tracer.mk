# src/tracer: rtg_tracer.so, the HSA tools library.  Only OnLoad/OnUnload
# are exported (-fvisibility=hidden).
# The wings: core (records, buffers, writer, settings), hsa (the runtime's
# tables and API wrappers), gpu (ops on the GPU), hip, roctx, process
# (exec/exit/signals); their files include each other as "wing/file.h".
TRACER_WINGS := core hsa gpu hip roctx process
TRACER_SRC := $(wildcard $(TRACER_WINGS:%=src/tracer/%/*.c))
TRACER_OBJ := $(TRACER_SRC:%.c=$(B)/obj/%.o)
TRACER_SO  := $(B)/rtg_tracer.so
EXTRA_CFLAGS_src/tracer/ := -fvisibility=hidden
$(B)/obj/src/tracer/%.o: CFLAGS += -Isrc/tracer

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

$(B)/tests/test_tracer_hsa_table: tests/unit/test_tracer_hsa_table.cpp include/rtg/hsa_table.h | $(B)/incfix/inc
	$(call say,CXXLD,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CXX) $(CXXFLAGS) -I$(B)/incfix -o $@ $< $(LDFLAGS)

TEST_BINS += $(B)/tests/test_tracer_hsa_table $(TRACER_SO)
UNIT_LIBS_test_tracer_tables := -ldl
# test_hip_ops includes hip_ops.c itself, test_tracer_tables the HSA lists.
$(B)/tests/test_hip_ops $(B)/tests/test_tracer_tables: CFLAGS += -Isrc/tracer
$(B)/tests/test_hip_ops: src/tracer/hip/hip_ops.c src/tracer/hip/gen/hip_ops_table.h src/tracer/hip/hip_internal.h
