# src/common: code shared by the tracer and the tools, built as one static
# archive of position-independent objects so rtg_tracer.so can link it too.
COMMON_SRC  := $(wildcard src/common/*.c)
COMMON_OBJ  := $(COMMON_SRC:%.c=$(B)/obj/%.o)
COMMON_LIB  := $(B)/librtgcommon.a

$(COMMON_LIB): $(COMMON_OBJ)
	$(call say,AR,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)rm -f $@ && ar rcs $@ $^

ALL_TARGETS += $(COMMON_LIB)
