/* memory.c - buffer objects. Device memory is host memory here too: a
 * VRAM/GTT object is backed by anonymous shared memory at the virtual
 * address the thunk chose for it (inside the SVM range it reserved), so the
 * GPU address is the CPU address and the simulated GPU's copies and fills
 * land where the program looks. The thunk's own mmap() of the object
 * (mmap.c) then keeps that memory. Userptr objects are the program's memory.
 * Freeing puts the range back to reserved (PROT_NONE), as the thunk expects
 * of its address space. The list answers sim_mem_valid for the blit kernels. */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/kfd_ioctl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "kfdsim.h"

typedef struct bo {
  uint64_t va, size;
  uint32_t gpu_id, flags;
  int backed; /* we mapped [va, va + size) */
  int used;
} bo_t;

static bo_t *bos;
static uint32_t nbos, cap;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

/* KFD's handle: gpu_id in the high half, an id in the low one. */
static uint64_t handle_of(uint32_t i) {
  return ((uint64_t)bos[i].gpu_id << 32) | (i + 1);
}

static bo_t *bo_of(uint64_t handle) {
  uint32_t i = (uint32_t)handle - 1;
  return i < nbos && bos[i].used && bos[i].gpu_id == handle >> 32 ? &bos[i] : NULL;
}

static int back(uint64_t va, uint64_t size) {
  void *p = mmap((void *)(uintptr_t)va, size, PROT_READ | PROT_WRITE | PROT_EXEC,
                 MAP_FIXED | MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return p == MAP_FAILED ? -ENOMEM : 0;
}

int kfdsim_alloc_memory(void *arg) {
  struct kfd_ioctl_alloc_memory_of_gpu_args *a = arg;
  if (kfdsim_gpu_of_id(a->gpu_id) < 0) return -EINVAL;
  int userptr = !!(a->flags & KFD_IOC_ALLOC_MEM_FLAGS_USERPTR);
  int backed = !userptr && a->va_addr && a->size;
  if (backed && back(a->va_addr, a->size)) return -ENOMEM;
  pthread_mutex_lock(&mu);
  uint32_t i = 0;
  while (i < nbos && bos[i].used) i++;
  if (i == nbos) {
    if (nbos == cap) {
      uint32_t ncap = cap ? cap * 2 : 256;
      bo_t *n = realloc(bos, ncap * sizeof *n);
      if (!n) {
        pthread_mutex_unlock(&mu);
        return -ENOMEM;
      }
      bos = n, cap = ncap;
    }
    nbos++;
  }
  bos[i] = (bo_t){a->va_addr, a->size, a->gpu_id, a->flags, backed, 1};
  a->handle = handle_of(i);
  pthread_mutex_unlock(&mu);
  /* The offset the thunk mmaps the render node (or /dev/kfd) at: any
   * page-aligned token; doorbells keep the one queues.c handed out. */
  if (!(a->flags & KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL) && !userptr) a->mmap_offset = a->handle << 12;
  KFDSIM_LOG("alloc va=%#llx size=%#llx flags=%#x -> handle %#llx\n",
             (unsigned long long)a->va_addr, (unsigned long long)a->size, a->flags,
             (unsigned long long)a->handle);
  return 0;
}

int kfdsim_free_memory(void *arg) {
  struct kfd_ioctl_free_memory_of_gpu_args *a = arg;
  pthread_mutex_lock(&mu);
  bo_t *b = bo_of(a->handle), old = b ? *b : (bo_t){0};
  if (b) b->used = 0;
  pthread_mutex_unlock(&mu);
  if (!b) return -EINVAL;
  if (old.backed)
    mmap((void *)(uintptr_t)old.va, old.size, PROT_NONE,
         MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return 0;
}

/* Every GPU sees all memory: mapping succeeds on each device asked for. */
int kfdsim_map_memory(void *arg) {
  struct kfd_ioctl_map_memory_to_gpu_args *a = arg;
  pthread_mutex_lock(&mu);
  int ok = bo_of(a->handle) != NULL;
  pthread_mutex_unlock(&mu);
  if (!ok) return -EINVAL;
  a->n_success = a->n_devices;
  return 0;
}

int kfdsim_unmap_memory(void *arg) {
  struct kfd_ioctl_unmap_memory_from_gpu_args *a = arg;
  pthread_mutex_lock(&mu);
  int ok = bo_of(a->handle) != NULL;
  pthread_mutex_unlock(&mu);
  if (!ok) return -EINVAL;
  a->n_success = a->n_devices;
  return 0;
}

static int inside(const bo_t *b, uint64_t p, uint64_t len) {
  return b->used && p >= b->va && p - b->va < b->size && len <= b->size - (p - b->va);
}

int kfdsim_backed(uint64_t addr, uint64_t len) {
  pthread_mutex_lock(&mu);
  int r = 0;
  for (uint32_t i = 0; i < nbos && !r; i++) r = bos[i].backed && inside(&bos[i], addr, len);
  pthread_mutex_unlock(&mu);
  return r;
}

int sim_mem_valid(const void *p, uint64_t len) {
  pthread_mutex_lock(&mu);
  int r = 0;
  for (uint32_t i = 0; i < nbos && !r; i++) r = inside(&bos[i], (uint64_t)(uintptr_t)p, len);
  pthread_mutex_unlock(&mu);
  return r;
}
