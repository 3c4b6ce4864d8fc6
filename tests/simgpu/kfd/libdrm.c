/* libdrm.c - the libdrm_amdgpu functions ROCR's built-in thunk calls on a
 * GPU's render node: opening the device (which would otherwise ask the
 * kernel with DRM ioctls), its file descriptor (the thunk maps buffer
 * objects through it), its marketing name and the GPU info whose
 * gpu_counter_freq gives the timestamp clock. LD_PRELOAD puts these before
 * libdrm_amdgpu's.
 * Buffer objects imported from a dma-buf: ROCR's virtual memory API maps a
 * handle of physical memory by exporting it from KFD (memory.c: its memfd),
 * importing that here, then mapping the buffer object at the chosen
 * address for each GPU (amdgpu_bo_va_op) and, for the CPU, mmap()ing the
 * render node at the offset DRM_AMDGPU_GEM_MMAP gave (mmap.c). The GPU's
 * addresses are the CPU's here, so a GPU mapping is the memfd mapped at
 * that address, and unmapping puts the range back to reserved. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
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

/* ---- buffer objects imported from a dma-buf ---- */

typedef struct sim_amdgpu_bo {
  uint32_t magic;
  uint32_t gem; /* its GEM handle: index + 1 in gems */
  int fd;       /* the dma-buf: a memfd of memory.c's */
  uint64_t size;
} bo_t;
#define BO_MAGIC 0x4b424f31u /* "KBO1" */
enum { MAX_GEMS = 4096 };
/* The render node offset of GEM handle g's pages (DRM_AMDGPU_GEM_MMAP):
 * above any offset memory.c hands out. */
#define GEM_OFFSET(g) ((0x7ull << 56) | ((uint64_t)(g) << 36))

static bo_t *gems[MAX_GEMS];
static pthread_mutex_t gems_mu = PTHREAD_MUTEX_INITIALIZER;

static bo_t *bo(void *h) {
  bo_t *b = h;
  return b && b->magic == BO_MAGIC ? b : NULL;
}

struct bo_import_result {
  void *buf_handle;
  uint64_t alloc_size;
};
enum { HANDLE_TYPE_KMS = 1, HANDLE_TYPE_DMA_BUF_FD = 2, VA_OP_MAP = 1, VA_OP_UNMAP = 2 };

KFDSIM_EXPORT int amdgpu_bo_import(void *dev, int type, uint32_t shared,
                                   struct bo_import_result *out) {
  struct stat st;
  if (!device(dev) || type != HANDLE_TYPE_DMA_BUF_FD || !out) return -EINVAL;
  if (fstat((int)shared, &st)) return -errno;
  bo_t *b = calloc(1, sizeof *b);
  if (!b) return -ENOMEM;
  b->fd = fcntl((int)shared, F_DUPFD_CLOEXEC, 0);
  if (b->fd < 0) {
    free(b);
    return -errno;
  }
  b->size = (uint64_t)st.st_size;
  b->magic = BO_MAGIC;
  pthread_mutex_lock(&gems_mu);
  for (uint32_t g = 0; g < MAX_GEMS && !b->gem; g++)
    if (!gems[g]) gems[g] = b, b->gem = g + 1;
  pthread_mutex_unlock(&gems_mu);
  if (!b->gem) {
    close(b->fd);
    free(b);
    return -ENOMEM;
  }
  out->buf_handle = b;
  out->alloc_size = b->size;
  return 0;
}

KFDSIM_EXPORT int amdgpu_bo_export(void *h, int type, uint32_t *shared) {
  bo_t *b = bo(h);
  if (!b || type != HANDLE_TYPE_KMS || !shared) return -EINVAL;
  *shared = b->gem;
  return 0;
}

KFDSIM_EXPORT int amdgpu_bo_free(void *h) {
  bo_t *b = bo(h);
  if (!b) return -EINVAL;
  pthread_mutex_lock(&gems_mu);
  gems[b->gem - 1] = NULL;
  pthread_mutex_unlock(&gems_mu);
  close(b->fd);
  b->magic = 0;
  free(b);
  return 0;
}

KFDSIM_EXPORT int amdgpu_bo_va_op(void *h, uint64_t offset, uint64_t size, uint64_t addr,
                                  uint64_t flags, uint32_t ops) {
  (void)flags; /* every GPU mapping is readable and writable here */
  bo_t *b = bo(h);
  if (!b || offset > b->size || size > b->size - offset) return -EINVAL;
  void *at = (void *)(uintptr_t)addr;
  if (ops == VA_OP_MAP) {
    if (mmap(at, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, b->fd, (off_t)offset) != at)
      return -errno;
    return kfdsim_va_mapped(addr, size, 1) ? -ENOMEM : 0;
  }
  if (ops != VA_OP_UNMAP) return -EINVAL;
  kfdsim_va_mapped(addr, size, 0);
  mmap(at, size, PROT_NONE, MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return 0;
}

int kfdsim_gem_fd(uint64_t off, uint64_t *in) {
  if ((off >> 56) != 0x7) return -1;
  uint64_t g = (off >> 36) & 0xfffff, rest = off & ((1ull << 36) - 1);
  pthread_mutex_lock(&gems_mu);
  int fd = g >= 1 && g <= MAX_GEMS && gems[g - 1] ? gems[g - 1]->fd : -1;
  pthread_mutex_unlock(&gems_mu);
  *in = rest;
  return fd;
}

/* DRM_IOCTL_AMDGPU_GEM_MMAP: DRM_IOWR(DRM_COMMAND_BASE + 1, union
 * drm_amdgpu_gem_mmap), in: handle, out: the offset to mmap the render
 * node at (the same 8 bytes). */
#define DRM_TYPE 'd'
#define NR_GEM_MMAP 0x41

int kfdsim_render_ioctl(unsigned long req, void *arg) {
  if (_IOC_TYPE(req) != DRM_TYPE || _IOC_NR(req) != NR_GEM_MMAP) return -ENOTTY;
  uint32_t g = *(const uint32_t *)arg;
  pthread_mutex_lock(&gems_mu);
  int ok = g >= 1 && g <= MAX_GEMS && gems[g - 1];
  pthread_mutex_unlock(&gems_mu);
  if (!ok) return -EINVAL;
  *(uint64_t *)arg = GEM_OFFSET(g);
  return 0;
}
