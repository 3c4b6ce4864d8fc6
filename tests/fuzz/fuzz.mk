# tests/fuzz: libFuzzer targets for everything that parses input.
#   make fuzz                  run each target for FUZZ_SECONDS (default 60)
#   make fuzz FUZZ_SECONDS=10  shorter
# Each target tests/fuzz/fuzz_<name>.c is built with clang and linked with
# the sources it names in FUZZ_SRC_<name>; its seed corpus is
# tests/data/fuzz/<name>/ and crashes found become files in that directory
# (a regression test replays the whole corpus in `make test`).
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_FLAGS   := -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
                -Iinclude -Isrc/common -Isrc/convert -DRTG_VERSION='"$(VERSION)"'
FUZZ_TARGETS := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))

# Per target: FUZZ_SRC_<name> the sources compiled into the libFuzzer build
# (with coverage), FUZZ_OBJ_<name> the objects linked into the replay
# program (besides the common library), FUZZ_LIBS_<name> libraries for both.
FUZZ_SRC_record := src/common/record.c

FUZZ_SRC_hcc_profile := src/common/hcc_profile.c

FUZZ_SRC_demangle := src/common/demangle.c

FUZZ_SRC_linereader := src/common/linereader.c src/common/inrange.c

FUZZ_RPT_SRC := src/rpt/roi.c src/rpt/sort.c src/common/diag.c src/common/strtab.c \
  src/common/xalloc.c
FUZZ_SRC_roi := $(FUZZ_RPT_SRC)
FUZZ_OBJ_roi := $(filter %/roi.o %/sort.o,$(RPT_OBJ))

# rtg-convert without its main(), and the common code it uses
FUZZ_CV_SRC := $(filter-out src/convert/main.c,$(CONVERT_SRC)) $(wildcard src/common/*.c) \
  $(B)/obj/html_assets.c
FUZZ_CV_OBJ := $(filter-out %/main.o,$(CONVERT_OBJ))
FUZZ_SRC_json := $(FUZZ_CV_SRC)
FUZZ_OBJ_json := $(FUZZ_CV_OBJ)
FUZZ_LIBS_json := -lsqlite3 -lcjson $(OTF2_LIBS) -lm
FUZZ_SRC_convert := $(FUZZ_CV_SRC)
FUZZ_OBJ_convert := $(FUZZ_CV_OBJ)
FUZZ_LIBS_convert := -lsqlite3 -lcjson $(OTF2_LIBS) -lm

$(B)/fuzz/fuzz_roi $(B)/fuzz/replay_roi: $(wildcard src/rpt/*.c src/rpt/*.h) $(FUZZ_OBJ_roi)
$(B)/fuzz/fuzz_json $(B)/fuzz/fuzz_convert: $(wildcard $(CONVERT_DIRS:%=%/*.c) $(CONVERT_DIRS:%=%/*.h)) tests/fuzz/fuzz_cv.h tests/fuzz/fuzz_csv_otf2.h tests/perfetto/pf_wire.h $(B)/obj/html_assets.c
$(B)/fuzz/replay_json $(B)/fuzz/replay_convert: $(FUZZ_CV_OBJ) tests/fuzz/fuzz_cv.h tests/fuzz/fuzz_csv_otf2.h tests/perfetto/pf_wire.h

$(B)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(wildcard src/common/*.c src/common/*.h include/rtg/*.h)
	$(call say,FUZZCC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $< $(FUZZ_SRC_$*) $(FUZZ_LIBS_$*)

fuzz: $(FUZZ_TARGETS:%=$(B)/fuzz/fuzz_%)
	@for t in $(FUZZ_TARGETS); do \
	  mkdir -p $(B)/fuzz/corpus-$$t tests/data/fuzz/$$t; \
	  echo "== fuzz_$$t for $(FUZZ_SECONDS)s"; \
	  $(B)/fuzz/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 -close_fd_mask=3 \
	    -artifact_prefix=tests/data/fuzz/$$t/crash- \
	    $(B)/fuzz/corpus-$$t tests/data/fuzz/$$t 2>&1 | \
	    grep -E '^(stat::number_of_executed_units|stat::new_units_added|==|SUMMARY)|ERROR' || true; \
	  test -z "$$(ls tests/data/fuzz/$$t/crash-* 2>/dev/null)" || { echo "fuzz_$$t: crash found"; exit 1; }; \
	done

.PHONY: fuzz

# Replay programs: the same targets built with the normal compiler flags.
FUZZ_REPLAY := $(FUZZ_TARGETS:%=$(B)/fuzz/replay_%)
$(B)/fuzz/replay_%: tests/fuzz/fuzz_%.c tests/fuzz/replay_main.c $(COMMON_LIB)
	$(call say,CCLD,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -o $@ $< tests/fuzz/replay_main.c $(FUZZ_OBJ_$*) $(COMMON_LIB) $(LDFLAGS) $(FUZZ_LIBS_$*) -lm
TEST_BINS += $(FUZZ_REPLAY)
