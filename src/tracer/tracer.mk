# src/tracer: rtg_tracer.so, the HSA tools library.
TRACER_SRC := $(wildcard src/tracer/*.c)
TRACER_OBJ := $(TRACER_SRC:%.c=$(B)/obj/%.o)
TRACER_SO  := $(B)/rtg_tracer.so

$(TRACER_SO): $(TRACER_OBJ) $(COMMON_LIB)
	$(call say,LD,$@)
	$(Q)$(CC) -shared -o $@ $(TRACER_OBJ) $(COMMON_LIB) $(LDFLAGS) -ldl

ALL_TARGETS += $(TRACER_SO)
INSTALL_LIB += $(TRACER_SO)
