# src/rpt: rpt, the HCC_PROFILE=2 style report.
RPT_SRC := $(wildcard src/rpt/*.c)
RPT_OBJ := $(RPT_SRC:%.c=$(B)/obj/%.o)
RPT_BIN := $(B)/rpt

$(RPT_BIN): $(RPT_OBJ) $(COMMON_LIB)
	$(call say,LD,$@)
	$(Q)$(CC) -o $@ $(RPT_OBJ) $(COMMON_LIB) $(LDFLAGS) -lm

ALL_TARGETS += $(RPT_BIN)

# tests/unit/test_rpt_core.c: the sort, resources and ROI pieces alone
RPT_CORE_OBJ := $(patsubst %,$(B)/obj/src/rpt/%.o,resources roi sort)
UNIT_EXTRA_test_rpt_core := $(RPT_CORE_OBJ)
$(B)/tests/test_rpt_core: $(RPT_CORE_OBJ)
$(B)/tests/test_rpt_core: CFLAGS += -Isrc/rpt
INSTALL_BIN += $(RPT_BIN)
