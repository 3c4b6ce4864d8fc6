/* kfdsim.h - the kernel-driver front end of simgpu (libsimgpu-kfd.so).
 *
 * ROCR >= 6.3 has the thunk built in: it talks to the driver itself, with
 * ioctls on /dev/kfd (modeled on the kernel's <linux/kfd_ioctl.h>), the KFD
 * topology in sysfs, a DRM render node per GPU and a few libdrm_amdgpu calls.
 * LD_PRELOADed, this library answers all of them, and the queues the thunk
 * creates run on the core's engines (../sim_core.h); the files and the
 * sysfs tree are the host view both front ends share (../hostview.h):
 *   mmap.c      mappings of the devices (buffer objects, doorbells)
 *   ioctl.c     the ioctl entry point and the small requests
 *   memory.c    buffer objects: allocate, free, map to GPUs
 *   svm.c       the SVM API: registered host memory, its attributes
 *   events.c    KFD events (interrupts), with event ages
 *   queues.c    hardware queues
 *   libdrm.c    the libdrm_amdgpu functions ROCR calls
 */
#ifndef SIMGPU_KFDSIM_H
#define SIMGPU_KFDSIM_H

#include <stddef.h>
#include <stdint.h>

#include "hostview.h"
#include "sim_core.h"

#define KFDSIM_EXPORT SIM_EXPORT

int kfdsim_gpu_of_id(uint32_t gpu_id); /* -1 if no such GPU */

/* ---- memory.c ---- */
int kfdsim_backed(uint64_t addr, uint64_t len); /* inside a backed buffer object? */
/* A range libdrm.c mapped to a GPU (on) or unmapped: valid GPU memory. */
int kfdsim_va_mapped(uint64_t va, uint64_t size, int on);
/* A range given SVM attributes (svm.c): valid GPU memory from then on,
 * listed once. */
int kfdsim_svm_range(uint64_t va, uint64_t size);

/* ---- libdrm.c ---- */
/* An mmap of a render node at offset off, of a buffer object ROCR imported:
 * its memfd and the offset in it (0), else -1. */
int kfdsim_gem_fd(uint64_t off, uint64_t *in);
/* A DRM ioctl on a render node (0 or -errno). */
int kfdsim_render_ioctl(unsigned long req, void *arg);

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
int kfdsim_export_dmabuf(void *arg);
int kfdsim_svm(void *arg);

#define KFDSIM_LOG(...) SIM_LOG("kfd: " __VA_ARGS__)

#endif
