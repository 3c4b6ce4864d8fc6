/* memory.c - buffer objects. Device memory is host memory here too: a
 * VRAM/GTT object is backed by anonymous shared memory at the virtual
 * address the thunk chose for it (inside the SVM range it reserved), so the
 * GPU address is the CPU address and the simulated GPU's copies and fills
 * land where the program looks. The thunk's own mmap() of the object
 * (mmap.c) then keeps that memory. Freeing puts the range back to reserved
 * (PROT_NONE), as the thunk expects of its address space.
 * Userptr objects are the program's memory, at the CPU address the thunk
 * passes in mmap_offset. Paged system memory the thunk allocates itself sits
 * at its GPU address; memory it registers (hsaKmtRegisterMemory: ROCR's
 * memory lock, ROCclr's pinned staging) gets a GPU address of its own in
 * the thunk's aperture, which stays reserved and unreadable. Those "moved"
 * objects are listed apart: sim_gpu_to_cpu translates their GPU addresses
 * for the engines (vm.c). The list of objects answers sim_mem_valid.
 * Memory without an address (ROCR's virtual memory API: a handle of
 * physical memory, mapped later at addresses of the program's choosing)
 * lives in a memfd of its own: exported as a dma-buf (KFD's
 * EXPORT_DMABUF), it is that memfd, which libdrm.c imports and maps where
 * ROCR asks; each range so mapped counts as an object too. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/kfd_ioctl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kfdsim.h"

typedef struct bo {
  uint64_t va, size;
  uint64_t cpu; /* the CPU address of va */
  uint32_t gpu_id, flags;
  int backed; /* we mapped [va, va + size) */
  int used;
  int memfd; /* memory without an address: its pages (-1: none) */
} bo_t;

static bo_t *bos;
static uint32_t nbos, cap;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

/* The objects whose GPU address is not their CPU address: few (one per
 * registered user buffer), looked up for every address an engine touches. */
typedef struct moved {
  uint64_t va, size, cpu, handle;
} moved_t;

static moved_t *moved;
static uint32_t nmoved, moved_cap;

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

/* Back to reserved address space. */
static void unback(uint64_t va, uint64_t size) {
  mmap((void *)(uintptr_t)va, size, PROT_NONE,
       MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
}

/* A free slot in bos (the list grows when full), or -1; mu held. */
static int64_t free_slot(void) {
  uint32_t i = 0;
  while (i < nbos && bos[i].used) i++;
  if (i < nbos) return i;
  if (nbos == cap) {
    uint32_t ncap = cap ? cap * 2 : 256;
    bo_t *n = realloc(bos, ncap * sizeof *n);
    if (!n) return -1;
    bos = n, cap = ncap;
  }
  return nbos++;
}

/* mu held. */
static int add_moved(const bo_t *b, uint64_t handle) {
  if (nmoved == moved_cap) {
    uint32_t ncap = moved_cap ? moved_cap * 2 : 16;
    moved_t *n = realloc(moved, ncap * sizeof *n);
    if (!n) return -1;
    moved = n, moved_cap = ncap;
  }
  moved[nmoved] = (moved_t){b->va, b->size, b->cpu, handle};
  __atomic_store_n(&nmoved, nmoved + 1, __ATOMIC_RELEASE);
  return 0;
}

/* mu held. */
static void remove_moved(uint64_t handle) {
  for (uint32_t i = 0; i < nmoved; i++)
    if (moved[i].handle == handle) {
      moved[i] = moved[nmoved - 1];
      __atomic_store_n(&nmoved, nmoved - 1, __ATOMIC_RELEASE);
      return;
    }
}

static int inside(const bo_t *b, uint64_t p, uint64_t len) {
  return b->used && p >= b->va && p - b->va < b->size && len <= b->size - (p - b->va);
}

/* Lists the object; 0 or -ENOMEM. */
static int add_bo(const bo_t *b, uint64_t *handle) {
  pthread_mutex_lock(&mu);
  int64_t i = free_slot();
  if (i >= 0) {
    bos[i] = *b;
    *handle = handle_of((uint32_t)i);
    if (b->cpu != b->va && add_moved(b, *handle)) bos[i].used = 0, i = -1;
  }
  pthread_mutex_unlock(&mu);
  return i < 0 ? -ENOMEM : 0;
}

int kfdsim_alloc_memory(void *arg) {
  struct kfd_ioctl_alloc_memory_of_gpu_args *a = arg;
  if (kfdsim_gpu_of_id(a->gpu_id) < 0) return -EINVAL;
  int userptr = !!(a->flags & KFD_IOC_ALLOC_MEM_FLAGS_USERPTR);
  int backed = !userptr && a->va_addr && a->size;
  /* userptr: the CPU address comes in mmap_offset */
  bo_t b = {.va = a->va_addr,
            .size = a->size,
            .cpu = userptr ? a->mmap_offset : a->va_addr,
            .gpu_id = a->gpu_id,
            .flags = a->flags,
            .backed = backed,
            .used = 1,
            .memfd = -1};
  if (backed && back(a->va_addr, a->size)) return -ENOMEM;
  if (!a->va_addr && a->size && !userptr &&
      !(a->flags & (KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL | KFD_IOC_ALLOC_MEM_FLAGS_MMIO_REMAP))) {
    b.memfd = memfd_create("simgpu-vram", MFD_CLOEXEC);
    if (b.memfd < 0 || ftruncate(b.memfd, (off_t)a->size)) {
      if (b.memfd >= 0) close(b.memfd);
      return -ENOMEM;
    }
  }
  uint64_t handle;
  if (add_bo(&b, &handle)) {
    if (backed) unback(b.va, b.size);
    if (b.memfd >= 0) close(b.memfd);
    return -ENOMEM;
  }
  a->handle = handle;
  /* The offset the thunk mmaps the render node (or /dev/kfd) at: any
   * page-aligned token; doorbells keep the one queues.c handed out. */
  if (!(a->flags & KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL) && !userptr) a->mmap_offset = a->handle << 12;
  KFDSIM_LOG("alloc va=%#llx size=%#llx flags=%#x cpu=%#llx -> handle %#llx\n",
             (unsigned long long)b.va, (unsigned long long)b.size, b.flags,
             (unsigned long long)b.cpu, (unsigned long long)a->handle);
  return 0;
}

int kfdsim_free_memory(void *arg) {
  struct kfd_ioctl_free_memory_of_gpu_args *a = arg;
  pthread_mutex_lock(&mu);
  bo_t *b = bo_of(a->handle), old = b ? *b : (bo_t){0};
  if (b) b->used = 0;
  if (b && old.cpu != old.va) remove_moved(a->handle);
  pthread_mutex_unlock(&mu);
  if (!b) return -EINVAL;
  if (old.backed) unback(old.va, old.size);
  if (old.memfd >= 0) close(old.memfd);
  return 0;
}

/* AMDKFD_IOC_EXPORT_DMABUF: a new descriptor of the object's pages, for
 * memory without an address (its memfd).  Objects at an address are
 * anonymous memory here, with nothing to share: -EINVAL (IPC is not
 * simulated). */
struct export_dmabuf_args {
  uint64_t handle;
  uint32_t flags;
  uint32_t dmabuf_fd;
};

int kfdsim_export_dmabuf(void *arg) {
  struct export_dmabuf_args *a = arg;
  pthread_mutex_lock(&mu);
  bo_t *b = bo_of(a->handle);
  int fd = b && b->memfd >= 0 ? fcntl(b->memfd, F_DUPFD_CLOEXEC, 0) : -1;
  int err = !b || b->memfd < 0 ? EINVAL : errno;
  pthread_mutex_unlock(&mu);
  if (fd < 0) return -err;
  a->dmabuf_fd = (uint32_t)fd;
  return 0;
}

int kfdsim_svm_range(uint64_t va, uint64_t size) {
  pthread_mutex_lock(&mu);
  int known = 0;
  for (uint32_t i = 0; i < nbos && !known; i++) known = !bos[i].gpu_id && inside(&bos[i], va, size);
  pthread_mutex_unlock(&mu);
  if (known) return 0;
  bo_t b = {.va = va, .size = size, .cpu = va, .used = 1, .memfd = -1};
  uint64_t handle;
  return add_bo(&b, &handle);
}

/* [va, va + size) mapped to a GPU by libdrm.c (on), or no longer (off): an
 * object for sim_mem_valid, of no GPU's handle (gpu_id 0). */
int kfdsim_va_mapped(uint64_t va, uint64_t size, int on) {
  if (on) {
    bo_t b = {.va = va, .size = size, .cpu = va, .used = 1, .memfd = -1};
    uint64_t handle;
    return add_bo(&b, &handle);
  }
  pthread_mutex_lock(&mu);
  for (uint32_t i = 0; i < nbos; i++)
    if (bos[i].used && !bos[i].gpu_id && bos[i].va == va && bos[i].size == size) {
      bos[i].used = 0;
      break;
    }
  pthread_mutex_unlock(&mu);
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

void *sim_gpu_to_cpu(uint64_t va, uint64_t *span) {
  uint64_t cpu = va, end = UINT64_MAX; /* where the translation changes */
  if (__atomic_load_n(&nmoved, __ATOMIC_ACQUIRE)) {
    pthread_mutex_lock(&mu);
    for (uint32_t i = 0; i < nmoved; i++) {
      const moved_t *m = &moved[i];
      if (va - m->va < m->size) {
        cpu = m->cpu + (va - m->va), end = m->va + m->size;
        break;
      }
      if (m->va > va && m->va < end) end = m->va;
    }
    pthread_mutex_unlock(&mu);
  }
  *span = end == UINT64_MAX ? UINT64_MAX : end - va;
  return (void *)(uintptr_t)cpu;
}
