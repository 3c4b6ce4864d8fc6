# src/convert: rtg-convert, the offline converter, in rooms by role: the
# driver here (main.c options.c passes.c convert.c convert.h), the readers
# in in/, one folder per output format in out/, what several outputs use in
# shared/, the idle-time analysis in analyze/.  Headers of another room are
# named by their room ("shared/corr.h"), from src/convert.
CONVERT_DIRS := src/convert src/convert/in $(wildcard src/convert/out/*) src/convert/shared \
  src/convert/analyze
CONVERT_SRC := $(wildcard $(CONVERT_DIRS:%=%/*.c))
CONVERT_OBJ := $(CONVERT_SRC:%.c=$(B)/obj/%.o)
# --html: the report's template (src/convert/out/html/report.*) is compiled
# in, as C arrays that scripts/embed.sh makes.
CONVERT_SRC := $(sort $(CONVERT_SRC) $(wildcard src/convert/out/html/*.c))
CONVERT_OBJ := $(CONVERT_SRC:%.c=$(B)/obj/%.o) $(B)/obj/html_assets.o
HTML_ASSETS := $(addprefix src/convert/out/html/,report.html.in report.css report.js)
$(B)/obj/html_assets.c: $(HTML_ASSETS) scripts/embed.sh
	$(call say,EMBED,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)scripts/embed.sh $(HTML_ASSETS) > $@.tmp && mv $@.tmp $@
$(B)/obj/html_assets.o: $(B)/obj/html_assets.c
	$(call say,CC,$<)
	$(Q)$(CC) $(CFLAGS) -c -o $@ $<
CONVERT_BIN := $(B)/rtg-convert
$(B)/obj/src/convert/%.o: CFLAGS += -Isrc/convert
# --otf2 needs the OTF2 library (Debian: libotf2-trace-dev, which
# scripts/install-deps.sh installs); without its headers out/otf2/otf2.c builds a
# stub that says so, and nothing is linked.
OTF2_LIBS := $(shell printf '\043include <otf2/otf2.h>\n' | $(CC) -E -x c - >/dev/null 2>&1 && echo -lotf2)

$(CONVERT_BIN): $(CONVERT_OBJ) $(COMMON_LIB)
	$(call say,LD,$@)
	$(Q)$(CC) -o $@ $(CONVERT_OBJ) $(COMMON_LIB) $(LDFLAGS) -lsqlite3 -lcjson $(OTF2_LIBS) -lm

ALL_TARGETS += $(CONVERT_BIN)
INSTALL_BIN += $(CONVERT_BIN)

# tests/unit/test_convert_chrome.c checks the Chrome JSON with cJSON
UNIT_LIBS_test_convert_chrome := -lcjson

# tests/unit/test_convert_corr.c tests the call/op matching on its own
UNIT_EXTRA_test_convert_corr := -Isrc/convert/shared src/convert/shared/corr.c

# tests/unit/test_convert_timemodel.c checks the streaming time model against
# the analysis's attribution
UNIT_EXTRA_test_convert_timemodel := -Isrc/convert -Isrc/convert/shared $(filter-out %/main.o,$(CONVERT_OBJ))
UNIT_LIBS_test_convert_timemodel := -lsqlite3 -lcjson $(OTF2_LIBS)
$(B)/tests/test_convert_timemodel: $(filter-out %/main.o,$(CONVERT_OBJ))

# tests/unit/test_convert_gaptrack.c checks the gap trackers' reorder window
# against a plain heap
UNIT_EXTRA_test_convert_gaptrack := -Isrc/convert/shared src/convert/shared/gaptrack.c
$(B)/tests/test_convert_gaptrack: src/convert/shared/gaptrack.c src/convert/shared/gaptrack.h

# tests/unit/test_convert_lanes.c checks the lanes of GPU ops against a model
UNIT_EXTRA_test_convert_lanes := -Isrc/convert -Isrc/convert/shared $(filter-out %/main.o,$(CONVERT_OBJ))
UNIT_LIBS_test_convert_lanes := -lsqlite3 -lcjson $(OTF2_LIBS)
$(B)/tests/test_convert_lanes: $(filter-out %/main.o,$(CONVERT_OBJ))

# tests/unit/test_perfetto.c runs the Perfetto sink in-process
UNIT_EXTRA_test_perfetto := -Isrc/convert $(filter-out %/main.o,$(CONVERT_OBJ))
UNIT_LIBS_test_perfetto := -lsqlite3 -lcjson $(OTF2_LIBS)
$(B)/tests/test_perfetto: $(filter-out %/main.o,$(CONVERT_OBJ)) tests/perfetto/pf_wire.h

# tests/unit/test_analyze.c checks --analyze's time model, launch
# decomposition and rules on their own
AN_UNIT_SRC := $(addprefix src/convert/analyze/,attrib.c ivset.c launch.c rules.c critical.c sort.c \
  memory.c) \
  src/common/u64map.c
UNIT_EXTRA_test_analyze := -Isrc/convert -Isrc/convert/analyze $(AN_UNIT_SRC)
$(B)/tests/test_analyze: $(AN_UNIT_SRC) $(wildcard src/convert/analyze/*.h)
