# tests/simgpu: the simulated AMD GPU, a replacement libhsakmt.so.1.
SIMGPU_SRC := $(wildcard tests/simgpu/*.c)
SIMGPU_OBJ := $(SIMGPU_SRC:%.c=$(B)/obj/%.o)
SIMGPU_SO  := $(B)/simgpu/libhsakmt.so.1

$(SIMGPU_SO): $(SIMGPU_OBJ)
	$(call say,LD,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) -shared -o $@ $(SIMGPU_OBJ) $(LDFLAGS) -Wl,-soname,libhsakmt.so.1

ALL_TARGETS += $(SIMGPU_SO)
