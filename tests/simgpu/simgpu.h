/* simgpu.h - the public face of the simulated GPU (build/simgpu/libhsakmt.so.1).
 *
 * Programs run unchanged on simgpu; only tests that want to steer it use this
 * header. Resolve the hook at run time, so the same program also runs on a
 * real GPU where the symbol does not exist:
 *
 *   void (*set)(simgpu_dispatch_hook_t, void*) =
 *       (void (*)(simgpu_dispatch_hook_t, void*))dlsym(RTLD_DEFAULT, "simgpuSetDispatchHook");
 *   if (set) set(my_hook, my_data);
 */
#ifndef SIMGPU_H
#define SIMGPU_H

#include <hsa/hsa.h>
#include <stdint.h>

/* Called on the queue's worker thread for every kernel dispatch, after any
 * built-in emulation (ROCR and ROCclr blit kernels) has run. `name` is the
 * kernel symbol as loaded (e.g. "_Z4vaddPKfS0_Pfi.kd"), or NULL when the
 * kernel object belongs to no loaded code object. The hook may read and write
 * the kernel arguments to emulate the kernel. It returns the simulated
 * duration in nanoseconds, or -1 to let simgpu choose (SIMGPU_KERNEL_TIMES,
 * then SIMGPU_KERNEL_NS). */
typedef int64_t (*simgpu_dispatch_hook_t)(const hsa_kernel_dispatch_packet_t *pkt, const char *name,
                                          void *user);

/* Installs (or, with NULL, removes) the dispatch hook. */
void simgpuSetDispatchHook(simgpu_dispatch_hook_t hook, void *user);

#endif
