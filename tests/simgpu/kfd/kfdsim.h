/* kfdsim.h - the kernel-driver front end of simgpu (libsimgpu-kfd.so).
 *
 * ROCR >= 6.3 has the thunk built in: it talks to the driver itself, with
 * ioctls on /dev/kfd (modeled on the kernel's <linux/kfd_ioctl.h>), the KFD
 * topology in sysfs, a DRM render node per GPU and a few libdrm_amdgpu calls.
 * LD_PRELOADed, this library answers all of them, and the queues the thunk
 * creates run on the core's engines (../sim_core.h):
 *   files.c     open/fopen/opendir of /dev/kfd, /dev/dri/renderD*, the sysfs
 *               topology and /proc/cpuinfo
 *   mmap.c      mappings of those devices (buffer objects, doorbells)
 *   topology.c  the sysfs tree, written from SIMGPU_* once per configuration
 *   ioctl.c     the ioctl entry point and the small requests
 *   memory.c    buffer objects: allocate, free, map to GPUs
 *   events.c    KFD events (interrupts), with event ages
 *   queues.c    hardware queues
 *   libdrm.c    the libdrm_amdgpu functions ROCR calls
 */
#ifndef SIMGPU_KFDSIM_H
#define SIMGPU_KFDSIM_H

#include <stddef.h>
#include <stdint.h>

#include "sim_core.h"

#define KFDSIM_EXPORT __attribute__((visibility("default")))

/* GPU n (0-based) is topology node n + 1 with this gpu_id (KFD's are
 * hashes; any non-zero value unique per GPU does). */
#define KFDSIM_GPU_ID_BASE 0x1000u
int kfdsim_gpu_of_id(uint32_t gpu_id); /* -1 if no such GPU */

/* ---- files.c ---- */
int kfdsim_is_device_fd(int fd); /* /dev/kfd, a render node, or a dup */
int kfdsim_is_kfd_fd(int fd);
int kfdsim_render_gpu(int fd); /* GPU of a render node fd, -1 if none */
/* The real libc functions behind the ones we interpose. */
int kfdsim_real_open(const char *path, int flags, unsigned mode);

/* ---- topology.c: the directory standing in for KFD's sysfs topology ---- */
const char *kfdsim_topology_dir(void);

/* ---- memory.c ---- */
int kfdsim_backed(uint64_t addr, uint64_t len); /* inside a backed buffer object? */

/* ---- the requests, by _IOC_NR; each returns 0 or -errno ---- */
int kfdsim_alloc_memory(void *arg);
int kfdsim_free_memory(void *arg);
int kfdsim_map_memory(void *arg);
int kfdsim_unmap_memory(void *arg);
int kfdsim_create_event(void *arg);
int kfdsim_destroy_event(void *arg);
int kfdsim_set_event(void *arg);
int kfdsim_reset_event(void *arg);
int kfdsim_wait_events(void *arg);
int kfdsim_create_queue(void *arg);
int kfdsim_destroy_queue(void *arg);
int kfdsim_update_queue(void *arg);

#define KFDSIM_LOG(...) SIM_LOG("kfd: " __VA_ARGS__)

#endif
