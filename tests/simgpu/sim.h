/* sim.h - the thunk front end of simgpu: libhsakmt.so.1, the library ROCR up
 * to 6.2 loads to reach the kernel driver. It shows node 0 as the host CPU and
 * nodes 1..N as simulated GPUs; the queues it creates run on the core's
 * engines (sim_core.h). Builds against the hsakmt.h of 5.x (bookworm,
 * /usr/include/hsakmt.h) and of 6.x (trixie, /usr/include/hsakmt/hsakmt.h,
 * found with -I by simgpu.mk). */
#ifndef SIMGPU_SIM_H
#define SIMGPU_SIM_H

/* libhsakmt 6.2.4's hsakmt.h names this struct in a prototype without
 * declaring it (a warning, an error under DEBUG=1); declared here first. */
struct kfd_ioctl_dbg_trap_args;
#include <hsakmt.h>

#include "hostview.h"
#include "sim_core.h"

/* libhsakmt >= 6.x: HsaNodeProperties has NumXcc/KFDGpuID/FamilyID and the
 * 6.x entry points exist in the header (their first new enum is the sign). */
#ifdef HSA_RUNTIME_ENABLE_CAPS_SUPPORTS_CORE_DUMP_MASK
#define SIM_HSAKMT_6 1
#else
#define SIM_HSAKMT_6 0
#endif

/* ---- memory.c ---- */
void *sim_mmio_page(void);

#endif
