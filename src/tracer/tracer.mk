# src/tracer: rtg_tracer.so, the HSA tools library.  Only OnLoad/OnUnload
# are exported (-fvisibility=hidden).
TRACER_SRC := $(wildcard src/tracer/*.c)
TRACER_OBJ := $(TRACER_SRC:%.c=$(B)/obj/%.o)
TRACER_SO  := $(B)/rtg_tracer.so
EXTRA_CFLAGS_src/tracer/ := -fvisibility=hidden

$(TRACER_SO): $(TRACER_OBJ) $(COMMON_LIB) src/tracer/exports.map
	$(call say,LD,$@)
	$(Q)$(CC) -shared -o $@ $(TRACER_OBJ) $(COMMON_LIB) $(LDFLAGS) -ldl -Wl,-z,defs -Wl,--version-script=src/tracer/exports.map

ALL_TARGETS += $(TRACER_SO)
INSTALL_LIB += $(TRACER_SO)
