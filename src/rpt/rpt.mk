# src/rpt: rpt, the HCC_PROFILE=2 style report.
RPT_SRC := $(wildcard src/rpt/*.c)
RPT_OBJ := $(RPT_SRC:%.c=$(B)/obj/%.o)
RPT_BIN := $(B)/rpt

$(RPT_BIN): $(RPT_OBJ) $(COMMON_LIB)
	$(call say,LD,$@)
	$(Q)$(CC) -o $@ $(RPT_OBJ) $(COMMON_LIB) $(LDFLAGS) -lm

ALL_TARGETS += $(RPT_BIN)
INSTALL_BIN += $(RPT_BIN)
