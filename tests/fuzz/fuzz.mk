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
                -Iinclude -Isrc/common -DRTG_VERSION='"$(VERSION)"'
FUZZ_TARGETS := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))

FUZZ_SRC_record := src/common/record.c

$(B)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(wildcard src/common/*.c src/common/*.h include/rtg/*.h)
	$(call say,FUZZCC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $< $(FUZZ_SRC_$*) $(FUZZ_LIBS_$*)

fuzz: $(FUZZ_TARGETS:%=$(B)/fuzz/fuzz_%)
	@for t in $(FUZZ_TARGETS); do \
	  mkdir -p $(B)/fuzz/corpus-$$t tests/data/fuzz/$$t; \
	  echo "== fuzz_$$t for $(FUZZ_SECONDS)s"; \
	  $(B)/fuzz/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
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
	$(Q)$(CC) $(CFLAGS) -o $@ $< tests/fuzz/replay_main.c $(COMMON_LIB) $(LDFLAGS) $(FUZZ_LIBS_$*) -lm
TEST_BINS += $(FUZZ_REPLAY)
