/* memory.c - device memory is host memory. Every allocation is an anonymous
 * mapping whose CPU address is also its GPU address, so the "GPU" (the queue
 * workers) and the host read the same bytes. Registered user memory gets a
 * GPU address of its own, as libhsakmt gives it one in its GPU aperture
 * (without the kernel's SVM API): a reserved, unreadable range of the same
 * size and page offset, which hsaKmtMapMemoryToGPU* and
 * hsaKmtQueryPointerInfo return and sim_gpu_to_cpu translates for the
 * engines (vm.c). HIP 5.2's hipHostUnregister needs the two addresses to
 * differ (it removes both from its map, aborting on the second when they
 * are one). A registration is counted per address and size: the same
 * address registered again with another size (HIP locks a buffer at the
 * address of one it freed still locked) gets a range of its own, which a
 * mapping of that address and size returns; a deregistration drops the
 * newest registration at the address. The list of allocations answers
 * hsaKmtQueryPointerInfo, which ROCR and HIP use to classify pointers, by
 * CPU or GPU address. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "sim.h"

typedef struct alloc {
  struct alloc *next;
  void *addr;   /* the CPU address */
  uint64_t gpu; /* the GPU address of addr */
  uint64_t size;
  void *reserved; /* registered memory: the range holding gpu, and its length */
  uint64_t reserved_len;
  uint64_t mapped; /* bytes we mmap'd; 0 for registered user memory */
  uint32_t regs;   /* registered memory: registrations of this address and size */
  HsaMemFlags flags;
  uint32_t node;
  HSA_POINTER_TYPE type;
  void *user_data;
} alloc_t;

static alloc_t *allocs;
static uint32_t nmoved; /* allocations whose gpu is not their addr */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static HSAuint32 gpu_nodes[SIM_MAX_GPUS];

/* Stands in for the HDP-flush register page; SDMA packets name it but the
 * writes have no effect. */
static void *mmio_page;
static pthread_once_t mmio_once = PTHREAD_ONCE_INIT;
static void mmio_init(void) {
  mmio_page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

void *sim_mmio_page(void) {
  pthread_once(&mmio_once, mmio_init);
  return mmio_page;
}

static int in_gpu_range(const alloc_t *a, uint64_t va) {
  return va >= a->gpu && va - a->gpu < a->size;
}

/* The allocation at CPU address p (exact), or holding p as a CPU or GPU
 * address. */
static alloc_t *find_locked(const void *p, int exact) {
  for (alloc_t *a = allocs; a; a = a->next) {
    if (exact
            ? a->addr == p
            : ((const char *)p >= (char *)a->addr && (const char *)p < (char *)a->addr + a->size) ||
                  in_gpu_range(a, (uint64_t)(uintptr_t)p))
      return a;
  }
  return NULL;
}

static void add(alloc_t *a) {
  pthread_mutex_lock(&mu);
  a->next = allocs;
  allocs = a;
  if (a->reserved) __atomic_store_n(&nmoved, nmoved + 1, __ATOMIC_RELEASE);
  pthread_mutex_unlock(&mu);
}

/* Big allocations get 2 MiB alignment like real VRAM, which also keeps ROCR's
 * fragment allocator happy. PROT_EXEC because code objects live here. */
HSAKMT_STATUS HSAKMTAPI hsaKmtAllocMemory(HSAuint32 node, HSAuint64 size, HsaMemFlags flags,
                                          void **out) {
  uint64_t align = size >= (2ull << 20) ? (2ull << 20) : 4096;
  size = (size + 4095) & ~4095ull;
  uint64_t len = size + align;
  char *p = mmap(NULL, len, PROT_READ | PROT_WRITE | PROT_EXEC,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) return HSAKMT_STATUS_NO_MEMORY;
  char *a = (char *)(((uintptr_t)p + align - 1) & ~(uintptr_t)(align - 1));
  if (a > p) munmap(p, a - p);
  if (a + size < p + len) munmap(a + size, p + len - (a + size));
  alloc_t *r = calloc(1, sizeof *r);
  if (!r) {
    munmap(a, size);
    return HSAKMT_STATUS_NO_MEMORY;
  }
  r->addr = a;
  r->gpu = (uint64_t)(uintptr_t)a;
  r->size = size;
  r->mapped = size;
  r->flags = flags;
  r->node = node;
  r->type = HSA_POINTER_ALLOCATED;
  add(r);
  *out = a;
  SIM_LOG("alloc node=%u size=%#llx flags=%#x -> %p\n", node, (unsigned long long)size, flags.Value,
          (void *)a);
  return HSAKMT_STATUS_SUCCESS;
}

static HSAKMT_STATUS remove_alloc(void *addr, int ours) {
  pthread_mutex_lock(&mu);
  alloc_t **pp = &allocs;
  while (*pp && ((*pp)->addr != addr || (ours ? !(*pp)->mapped : (*pp)->mapped != 0)))
    pp = &(*pp)->next;
  alloc_t *a = *pp;
  if (a) *pp = a->next;
  if (a && a->reserved) __atomic_store_n(&nmoved, nmoved - 1, __ATOMIC_RELEASE);
  pthread_mutex_unlock(&mu);
  if (!a) return HSAKMT_STATUS_INVALID_PARAMETER;
  if (a->mapped) munmap(a->addr, a->mapped);
  if (a->reserved) munmap(a->reserved, a->reserved_len);
  free(a);
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtFreeMemory(void *addr, HSAuint64 size) {
  (void)size;
  return remove_alloc(addr, 1);
}

/* The GPU address of registered memory: a reserved range with the same
 * page offset, as the thunk takes from its aperture. */
static int reserve_gpu_range(alloc_t *r) {
  uint64_t off = (uintptr_t)r->addr & 4095;
  r->reserved_len = (off + r->size + 4095) & ~4095ull;
  r->reserved =
      mmap(NULL, r->reserved_len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (r->reserved == MAP_FAILED) return r->reserved = NULL, -1;
  r->gpu = (uint64_t)(uintptr_t)r->reserved + off;
  return 0;
}

/* The registration of exactly addr and size; mu held. */
static alloc_t *registered(const void *addr, uint64_t size) {
  for (alloc_t *a = allocs; a; a = a->next)
    if (!a->mapped && a->addr == addr && a->size == size) return a;
  return NULL;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtRegisterMemoryWithFlags(void *addr, HSAuint64 size,
                                                      HsaMemFlags flags) {
  pthread_mutex_lock(&mu);
  alloc_t *k = find_locked(addr, 1), *same = registered(addr, size);
  int known = (k && k->mapped) || same;
  if (same) same->regs++;
  pthread_mutex_unlock(&mu);
  if (known) return HSAKMT_STATUS_SUCCESS;
  alloc_t *r = calloc(1, sizeof *r);
  if (!r) return HSAKMT_STATUS_NO_MEMORY;
  r->addr = addr;
  r->size = size;
  r->flags = flags;
  r->node = SIM_CPU_NODE;
  r->type = HSA_POINTER_REGISTERED_USER;
  r->regs = 1;
  if (reserve_gpu_range(r)) {
    free(r);
    return HSAKMT_STATUS_NO_MEMORY;
  }
  add(r);
  SIM_LOG("register %p size=%#llx -> gpu %#llx\n", addr, (unsigned long long)size,
          (unsigned long long)r->gpu);
  return HSAKMT_STATUS_SUCCESS;
}

/* Memory from hsaKmtAllocMemory stays until hsaKmtFreeMemory; of memory
 * registered more than once, one registration goes (the newest). */
HSAKMT_STATUS HSAKMTAPI hsaKmtDeregisterMemory(void *addr) {
  pthread_mutex_lock(&mu);
  alloc_t *a = allocs;
  while (a && (a->mapped || a->addr != addr)) a = a->next;
  int more = a && a->regs > 1;
  if (more) a->regs--;
  pthread_mutex_unlock(&mu);
  if (!more) remove_alloc(addr, 0);
  return HSAKMT_STATUS_SUCCESS;
}

/* The GPU address of CPU address p, mapped with size bytes (a
 * registration of exactly p and size first). */
static uint64_t gpu_address(void *p, uint64_t size) {
  pthread_mutex_lock(&mu);
  alloc_t *a = registered(p, size);
  for (alloc_t *i = allocs; i && !a; i = i->next)
    if ((char *)p >= (char *)i->addr && (char *)p < (char *)i->addr + i->size) a = i;
  uint64_t va = a ? a->gpu + (uint64_t)((char *)p - (char *)a->addr) : (uint64_t)(uintptr_t)p;
  pthread_mutex_unlock(&mu);
  return va;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtMapMemoryToGPU(void *addr, HSAuint64 size, HSAuint64 *gpu_va) {
  if (gpu_va) *gpu_va = gpu_address(addr, size);
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtMapMemoryToGPUNodes(void *addr, HSAuint64 size, HSAuint64 *gpu_va,
                                                  HsaMemMapFlags flags, HSAuint64 n,
                                                  HSAuint32 *nodes) {
  (void)flags, (void)n, (void)nodes;
  if (gpu_va) *gpu_va = gpu_address(addr, size);
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtUnmapMemoryToGPU(void *addr) {
  (void)addr;
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtQueryPointerInfo(const void *p, HsaPointerInfo *info) {
  memset(info, 0, sizeof *info);
  for (uint32_t i = 0; i < SIM_MAX_GPUS; i++) gpu_nodes[i] = i + 1;
  pthread_mutex_lock(&mu);
  alloc_t *a = find_locked(p, 0);
  if (a) {
    info->Type = a->type;
    info->Node = a->node;
    info->MemFlags = a->flags;
    info->CPUAddress = a->addr;
    info->GPUAddress = a->gpu;
    info->SizeInBytes = a->size;
    info->NRegisteredNodes = info->NMappedNodes = sim_cfg.gpus;
    info->RegisteredNodes = info->MappedNodes = gpu_nodes;
    info->UserData = a->user_data;
  } else {
    info->Type = HSA_POINTER_UNKNOWN;
  }
  pthread_mutex_unlock(&mu);
  return HSAKMT_STATUS_SUCCESS;
}

/* p is a GPU address. */
int sim_mem_valid(const void *p, uint64_t len) {
  uint64_t va = (uint64_t)(uintptr_t)p;
  pthread_mutex_lock(&mu);
  int ok = 0;
  for (alloc_t *a = allocs; a && !ok; a = a->next)
    ok = in_gpu_range(a, va) && len <= a->size - (va - a->gpu);
  pthread_mutex_unlock(&mu);
  return ok;
}

void *sim_gpu_to_cpu(uint64_t va, uint64_t *span) {
  uint64_t cpu = va, end = UINT64_MAX; /* where the translation changes */
  if (__atomic_load_n(&nmoved, __ATOMIC_ACQUIRE)) {
    pthread_mutex_lock(&mu);
    for (alloc_t *a = allocs; a; a = a->next) {
      if (!a->reserved) continue;
      if (in_gpu_range(a, va)) {
        cpu = (uint64_t)(uintptr_t)a->addr + (va - a->gpu), end = a->gpu + a->size;
        break;
      }
      if (a->gpu > va && a->gpu < end) end = a->gpu;
    }
    pthread_mutex_unlock(&mu);
  }
  *span = end == UINT64_MAX ? UINT64_MAX : end - va;
  return (void *)(uintptr_t)cpu;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtSetMemoryUserData(const void *p, void *user_data) {
  pthread_mutex_lock(&mu);
  alloc_t *a = find_locked(p, 1);
  if (a) a->user_data = user_data;
  pthread_mutex_unlock(&mu);
  return a ? HSAKMT_STATUS_SUCCESS : HSAKMT_STATUS_INVALID_PARAMETER;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtSetMemoryPolicy(HSAuint32 node, HSAuint32 default_policy,
                                              HSAuint32 alt_policy, void *alt_base,
                                              HSAuint64 alt_size) {
  (void)node, (void)default_policy, (void)alt_policy, (void)alt_base, (void)alt_size;
  return HSAKMT_STATUS_SUCCESS;
}

/* The trap handler is never run, but ROCR (built with asserts) needs this to
 * succeed. */
HSAKMT_STATUS HSAKMTAPI hsaKmtSetTrapHandler(HSAuint32 node, void *base, HSAuint64 size, void *buf,
                                             HSAuint64 buf_size) {
  (void)node, (void)buf_size;
  SIM_LOG("trap handler %p size %#llx tma %p\n", base, (unsigned long long)size, buf);
  return HSAKMT_STATUS_SUCCESS;
}
