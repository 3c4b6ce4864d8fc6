/* memory.c - device memory is host memory. Every allocation is an anonymous
 * mapping whose CPU address is also its GPU address, so the "GPU" (the queue
 * workers) and the host read the same bytes. The list of allocations answers
 * hsaKmtQueryPointerInfo, which ROCR and HIP use to classify pointers. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "sim.h"

typedef struct alloc {
  struct alloc *next;
  void *addr;
  uint64_t size;
  uint64_t mapped; /* bytes we mmap'd; 0 for registered user memory */
  HsaMemFlags flags;
  uint32_t node;
  HSA_POINTER_TYPE type;
  void *user_data;
} alloc_t;

static alloc_t *allocs;
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

static alloc_t *find_locked(const void *p, int exact) {
  for (alloc_t *a = allocs; a; a = a->next) {
    if (exact ? a->addr == p
              : ((const char *)p >= (char *)a->addr && (const char *)p < (char *)a->addr + a->size))
      return a;
  }
  return NULL;
}

static void add(alloc_t *a) {
  pthread_mutex_lock(&mu);
  a->next = allocs;
  allocs = a;
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
  pthread_mutex_unlock(&mu);
  if (!a) return HSAKMT_STATUS_INVALID_PARAMETER;
  if (a->mapped) munmap(a->addr, a->mapped);
  free(a);
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtFreeMemory(void *addr, HSAuint64 size) {
  (void)size;
  return remove_alloc(addr, 1);
}

HSAKMT_STATUS HSAKMTAPI hsaKmtRegisterMemoryWithFlags(void *addr, HSAuint64 size,
                                                      HsaMemFlags flags) {
  pthread_mutex_lock(&mu);
  int known = find_locked(addr, 1) != NULL;
  pthread_mutex_unlock(&mu);
  if (known) return HSAKMT_STATUS_SUCCESS;
  alloc_t *r = calloc(1, sizeof *r);
  if (!r) return HSAKMT_STATUS_NO_MEMORY;
  r->addr = addr;
  r->size = size;
  r->flags = flags;
  r->node = SIM_CPU_NODE;
  r->type = HSA_POINTER_REGISTERED_USER;
  add(r);
  return HSAKMT_STATUS_SUCCESS;
}

/* Memory from hsaKmtAllocMemory stays until hsaKmtFreeMemory. */
HSAKMT_STATUS HSAKMTAPI hsaKmtDeregisterMemory(void *addr) {
  remove_alloc(addr, 0);
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtMapMemoryToGPU(void *addr, HSAuint64 size, HSAuint64 *gpu_va) {
  (void)size;
  if (gpu_va) *gpu_va = (uint64_t)(uintptr_t)addr;
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtMapMemoryToGPUNodes(void *addr, HSAuint64 size, HSAuint64 *gpu_va,
                                                  HsaMemMapFlags flags, HSAuint64 n,
                                                  HSAuint32 *nodes) {
  (void)size, (void)flags, (void)n, (void)nodes;
  if (gpu_va) *gpu_va = (uint64_t)(uintptr_t)addr;
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
    info->GPUAddress = (uint64_t)(uintptr_t)a->addr;
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

int sim_mem_valid(const void *p, uint64_t len) {
  pthread_mutex_lock(&mu);
  alloc_t *a = find_locked(p, 0);
  int ok = a && len <= a->size - (uint64_t)((const char *)p - (char *)a->addr);
  pthread_mutex_unlock(&mu);
  return ok;
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
