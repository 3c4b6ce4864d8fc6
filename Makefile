# rtg: plain Makefile. `make` builds everything into build/, `make test` runs
# the unit and end-to-end tests, `make demo` traces an example.
#   V=1      show commands          DEBUG=1  -O0 -g3 -Werror
#   SAN=address,undefined           build everything with sanitizers
#   PREFIX=/usr/local DESTDIR=      for `make install`

VERSION   := 0.1.0
PREFIX    ?= /usr/local
DESTDIR   ?=
B         ?= build

CC        ?= cc
CXX       ?= c++
CFLAGS    ?= -O2 -g
CFLAGS    += -std=gnu11 -Wall -Wextra -Wno-unused-parameter -fPIC -pthread \
             -Iinclude -Isrc/common -DRTG_VERSION='"$(VERSION)"'
CXXFLAGS  ?= -O2 -g
CXXFLAGS  += -Wall -Wextra -Wno-unused-parameter -fPIC -pthread -Iinclude
LDFLAGS   += -pthread

ifeq ($(DEBUG),1)
  CFLAGS   += -O0 -g3 -Werror
  CXXFLAGS += -O0 -g3 -Werror
endif
ifneq ($(SAN),)
  SANFLAGS := -fsanitize=$(SAN) -fno-omit-frame-pointer
  CFLAGS   += $(SANFLAGS)
  CXXFLAGS += $(SANFLAGS)
  LDFLAGS  += $(SANFLAGS)
endif

ifeq ($(V),1)
  Q :=
  say :=
else
  Q := @
  say = @printf '  %-7s %s\n' $(1) $(2);
endif

# The pieces: each directory owns a fragment that appends to these lists.
ALL_TARGETS :=
TEST_BINS   :=
INSTALL_BIN :=
INSTALL_LIB :=

all: build-all

include src/common/common.mk
include src/tracer/tracer.mk
include src/convert/convert.mk
include src/rpt/rpt.mk
include tests/simgpu/simgpu.mk
include examples/examples.mk
include tests/tests.mk
# Fragments of pieces that may not exist yet in every checkout.
-include src/tracer/launcher.mk
-include tests/progs/progs.mk
-include tests/fuzz/fuzz.mk
-include tests/fault/fault.mk

build-all: $(ALL_TARGETS)

# Generic rules: objects mirror the source tree under build/obj.
$(B)/obj/%.o: %.c
	$(call say,CC,$<)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -MMD -MP -c -o $@ $<

$(B)/obj/%.o: %.cpp
	$(call say,CXX,$<)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CXX) $(CXXFLAGS) -MMD -MP -c -o $@ $<

-include $(shell find $(B)/obj -name '*.d' 2>/dev/null)

deps:
	@scripts/install-deps.sh -q

test: deps
	$(Q)$(MAKE) --no-print-directory build-all $(TEST_BINS)
	@B=$(B) SAN=$(SAN) tests/run.sh

demo: deps
	$(Q)$(MAKE) --no-print-directory build-all
	@B=$(B) scripts/demo.sh

# Benchmarks print ratios measured side by side in one run (no absolute
# targets: the machine is noisy).  BENCH_QUICK=1 makes them small.
bench: deps
	$(Q)$(MAKE) --no-print-directory build-all
	@for s in scripts/bench-*.sh; do [ -x "$$s" ] || continue; echo "== $$s"; B=$(B) "$$s" || exit 1; done

install: build-all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/rtg $(DESTDIR)$(PREFIX)/include/rtg
	install -m 755 $(INSTALL_BIN) $(DESTDIR)$(PREFIX)/bin/
	install -m 755 $(INSTALL_LIB) $(DESTDIR)$(PREFIX)/lib/rtg/
	install -m 644 include/rtg/*.h $(DESTDIR)$(PREFIX)/include/rtg/

format:
	clang-format -i $$(git ls-files '*.c' '*.h' '*.cpp')

clean:
	rm -rf $(B)

.PHONY: all build-all deps test demo bench install format clean
