/* kfd.c - opening and closing the (simulated) driver, version, debugger
 * hand-shake and clock counters. */
#define _GNU_SOURCE
#include <string.h>

#include "sim.h"

static int open_count;

HSAKMT_STATUS HSAKMTAPI hsaKmtOpenKFD(void) {
  sim_config_load();
  __atomic_add_fetch(&open_count, 1, __ATOMIC_ACQ_REL);
  SIM_LOG("open: %u GPU(s), gfx%d%d%x, %u CUs, kernel %llu ns\n", sim_cfg.gpus,
          sim_cfg.gfx[0].major, sim_cfg.gfx[0].minor, sim_cfg.gfx[0].stepping, sim_cfg.cus,
          (unsigned long long)sim_cfg.kernel_ns);
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtCloseKFD(void) {
  int n = __atomic_load_n(&open_count, __ATOMIC_ACQUIRE);
  if (n <= 0) return HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED;
  __atomic_sub_fetch(&open_count, 1, __ATOMIC_ACQ_REL);
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtGetVersion(HsaVersionInfo *v) {
  v->KernelInterfaceMajorVersion = 1;
  v->KernelInterfaceMinorVersion = 12;
  return HSAKMT_STATUS_SUCCESS;
}

/* ROCR hands over its loader's r_debug (_amdgpu_r_debug), the list of loaded
 * GPU code objects: kernel_names.c uses it to name kernels. Answering
 * NOT_SUPPORTED keeps ROCR on the path without a debugger-managed trap
 * handler, exception signals and per-queue error events. */
HSAKMT_STATUS HSAKMTAPI hsaKmtRuntimeEnable(void *r_debug, bool setup_ttmp) {
  (void)setup_ttmp;
  sim_set_rdebug(r_debug);
  return HSAKMT_STATUS_NOT_SUPPORTED;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtRuntimeDisable(void) {
  return HSAKMT_STATUS_SUCCESS;
}

/* GPU, CPU and system counters all run on CLOCK_BOOTTIME at 1 GHz (clock.c). */
HSAKMT_STATUS HSAKMTAPI hsaKmtGetClockCounters(HSAuint32 node, HsaClockCounters *c) {
  (void)node;
  uint64_t t = sim_clock_counter();
  c->GPUClockCounter = t;
  c->CPUClockCounter = t;
  c->SystemClockCounter = t;
  c->SystemClockFrequencyHz = 1000000000ull;
  return HSAKMT_STATUS_SUCCESS;
}
