/* mmap.c - mappings of /dev/kfd and the render nodes. The thunk maps every
 * buffer object, the doorbell page and the MMIO page with
 * mmap(va, MAP_FIXED, fd, offset). A buffer object memory.c already backs
 * keeps its memory (only the protection is set); a buffer object ROCR
 * imported from a dma-buf (libdrm.c) maps its memfd; anything else becomes
 * anonymous shared memory at the requested address. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sys/mman.h>

#include "kfdsim.h"

static void *(*real_mmap)(void *, size_t, int, int, int, off_t);

KFDSIM_EXPORT void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off) {
  if (!real_mmap)
    real_mmap = (void *(*)(void *, size_t, int, int, int, off_t))dlsym(RTLD_NEXT, "mmap");
  if (fd < 0 || !sim_is_device_fd(fd)) return real_mmap(addr, len, prot, flags, fd, off);
  uint64_t in;
  int gem = kfdsim_gem_fd((uint64_t)off, &in);
  if (gem >= 0) /* a buffer object ROCR imported: its own pages */
    return real_mmap(addr, len, prot, flags, gem, (off_t)in);
  if (addr && (flags & MAP_FIXED) && kfdsim_backed((uint64_t)(uintptr_t)addr, len))
    return mprotect(addr, len, prot) ? MAP_FAILED : addr;
  flags = (flags & ~(MAP_PRIVATE | MAP_SHARED_VALIDATE)) | MAP_SHARED | MAP_ANONYMOUS;
  return real_mmap(addr, len, prot, flags, -1, 0);
}

KFDSIM_EXPORT void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off)
    __attribute__((alias("mmap")));
