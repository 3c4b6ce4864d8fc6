/* libdrm.c - the libdrm_amdgpu functions ROCR's built-in thunk calls on a
 * GPU's render node: opening the device (which would otherwise ask the
 * kernel with DRM ioctls), its file descriptor (the thunk maps buffer
 * objects through it), its marketing name and the GPU info whose
 * gpu_counter_freq gives the timestamp clock. LD_PRELOAD puts these before
 * libdrm_amdgpu's. Buffer-object sharing (amdgpu_bo_*) is not simulated and
 * stays libdrm's: it fails on a render node here, as IPC does. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "kfdsim.h"

typedef struct sim_amdgpu_device {
  uint32_t magic;
  int fd, gpu;
  char name[64];
} device_t;
#define DEVICE_MAGIC 0x4b444556u /* "KDEV" */

static device_t *device(void *h) {
  device_t *d = h;
  return d && d->magic == DEVICE_MAGIC ? d : NULL;
}

KFDSIM_EXPORT int amdgpu_device_initialize(int fd, uint32_t *major, uint32_t *minor, void **dev) {
  int g = sim_render_gpu(fd);
  if (g < 0) return -ENODEV;
  device_t *d = calloc(1, sizeof *d);
  if (!d) return -ENOMEM;
  /* libdrm keeps its own descriptor: the thunk closes the one it passed and
   * later maps buffer objects through amdgpu_device_get_fd()'s */
  d->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (d->fd < 0) {
    free(d);
    return -errno;
  }
  d->magic = DEVICE_MAGIC;
  d->gpu = g;
  sim_config_load();
  sim_marketing_name(&sim_cfg.gfx[g], d->name, sizeof d->name);
  *major = 3; /* the DRM driver's interface version, amdgpu 3.x */
  *minor = 57;
  *dev = d;
  return 0;
}

KFDSIM_EXPORT int amdgpu_device_deinitialize(void *dev) {
  device_t *d = device(dev);
  if (!d) return -EINVAL;
  close(d->fd);
  d->magic = 0;
  free(d);
  return 0;
}

KFDSIM_EXPORT int amdgpu_device_get_fd(void *dev) {
  device_t *d = device(dev);
  return d ? d->fd : -1;
}

KFDSIM_EXPORT const char *amdgpu_get_marketing_name(void *dev) {
  device_t *d = device(dev);
  return d ? d->name : NULL;
}

KFDSIM_EXPORT int amdgpu_query_gpu_info(void *dev, sim_amdgpu_gpu_info_t *info) {
  device_t *d = device(dev);
  if (!d || !info) return -EINVAL;
  sim_amdgpu_gpu_info((uint32_t)d->gpu, info);
  return 0;
}
