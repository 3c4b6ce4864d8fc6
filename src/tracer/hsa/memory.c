/* Memory records: every allocation, free, lock and unlock the application
 * (or HIP on its behalf) makes through the runtime's table, recorded
 * whether or not HSA or HIP API tracing is on (include/rtg/record.h,
 * RTG_FIELDS_MEMORY).  HIP's hipMalloc, hipHostMalloc, hipFree,
 * hipHostRegister and their kin all end up in these HSA calls, so this one
 * level sees each allocation once; the record carries the correlation id
 * of the HIP call it was made in.  The call pushes a small entry (time
 * stamps, numbers), as an HSA API wrapper does; the writer makes it text.
 *
 * The virtual memory API (ROCm 6.0 on; HIP 7's stream-ordered pools,
 * hipMallocAsync) allocates physical memory apart from any address:
 * hsa_amd_vmem_handle_create is the allocation (the handle stands for its
 * address, as in rocprofv3's VMEM_ALLOCATE), hsa_amd_vmem_handle_release
 * the free; reserving addresses and mapping them allocate nothing.
 *
 * Managed memory on a GPU whose driver offers KFD's SVM API (HIP 7.2's
 * hipMallocManaged) is a range of reserved addresses
 * (hsa_amd_vmem_address_reserve_align) that hsa_amd_svm_attributes_set
 * then gives SVM attributes; the system supplies its pages on use.  The
 * range is recorded as an allocation of kind managed on the host agent
 * (where its pages are until they move) when the attributes are first set
 * on exactly a reserved range, spanning the reserve to the attributes; its
 * hsa_amd_vmem_address_free is the free.  A reserved range that never gets
 * SVM attributes (the virtual memory API's) records nothing.  HIP 6.4 maps
 * the range with the operating system's mmap instead, and unmaps it at
 * hipFree (managed_os.c): the same record, from the mmap's start, and its
 * munmap as the free.
 *
 * A pool's agent and kind come from a table of every agent's pools, made
 * at load (hsa_amd_agent_iterate_memory_pools). */
#include "core/spin.h"
#include "core/stamp.h"
#include "hsa_side.h"

#include <stdbool.h>
#include <string.h>

enum { MAX_POOLS = 512 };
static struct {
  uint64_t handle;
  uint32_t agent;
  bool host; /* a CPU agent's pool */
} pools[MAX_POOLS];
static uint32_t n_pools;
static int host_agent = -1; /* the first CPU agent's index: where locked memory is */

static hsa_status_t add_pool(hsa_amd_memory_pool_t pool, void *data) {
  const rtg_agent *ag = data;
  if (n_pools < MAX_POOLS)
    pools[n_pools++] =
        (__typeof__(pools[0])){pool.handle, ag->index, ag->type == HSA_DEVICE_TYPE_CPU};
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t add_agent_pools(hsa_agent_t a, void *data) {
  (void)data;
  rtg_agent *ag = rtg_agent_find(a);
  if (ag) rtg_real.hsa_amd_agent_iterate_memory_pools(a, add_pool, ag);
  return HSA_STATUS_SUCCESS;
}

/* The pool's index in the table, or -1 (a pool made later, unknown). */
static int pool_find(uint64_t handle) {
  for (uint32_t i = 0; i < n_pools; i++)
    if (pools[i].handle == handle) return (int)i;
  return -1;
}

/* The entry a call pushes (stamps, core/stamp.h), made into its record on
 * the writer thread (format_mem). */
enum { M_ALLOC, M_FREE, M_LOCK, M_UNLOCK };
enum {
  A_POOL_ALLOCATE,
  A_POOL_FREE,
  A_LOCK,
  A_LOCK_TO_POOL,
  A_UNLOCK,
  A_VMEM_CREATE,
  A_VMEM_RELEASE,
  A_SVM_ATTRIBUTES_SET,
  A_VMEM_ADDRESS_FREE,
  A_MUNMAP
};
enum { HAS_SIZE = 1, HAS_AGENT = 2, HAS_CORR = 4, HAS_POOL = 8 };
typedef struct mem_entry {
  uint8_t op, api, kind, has; /* kind: 0 none, 1 device, 2 host, 3 pinned, 4 managed */
  uint32_t agent;
  uint64_t start, dur, addr, size, corr, pool;
} mem_entry;

static size_t format_mem(char *out, size_t cap, const void *payload, size_t len, uint32_t pid,
                         uint64_t tid) {
  static const char *const ops[] = {"alloc", "free", "lock", "unlock"};
  static const char *const apis[] = {"hsa_amd_memory_pool_allocate", "hsa_amd_memory_pool_free",
                                     "hsa_amd_memory_lock",          "hsa_amd_memory_lock_to_pool",
                                     "hsa_amd_memory_unlock",        "hsa_amd_vmem_handle_create",
                                     "hsa_amd_vmem_handle_release",  "hsa_amd_svm_attributes_set",
                                     "hsa_amd_vmem_address_free",    "munmap"};
  static const char *const kinds[] = {NULL, "device", "host", "pinned", "managed"};
  mem_entry e;
  if (len < sizeof e) return 0;
  memcpy(&e, payload, sizeof e);
  if (e.op > M_UNLOCK || e.api > A_MUNMAP || e.kind > 4) return 0;
  rtg_record r;
  rtg_record_init(&r, RTG_KIND_MEMORY, pid, tid);
  uint64_t dur;
  rtg_stamp_span_ns(e.start, e.dur, &r.u.MEMORY.start, &dur);
  r.u.MEMORY.op = ops[e.op];
  r.u.MEMORY.stop = r.u.MEMORY.start + dur;
  r.u.MEMORY.addr = e.addr;
  if (e.has & HAS_SIZE) RTG_SET(&r, MEMORY, size, e.size);
  if (e.has & HAS_AGENT) RTG_SET(&r, MEMORY, agent, e.agent);
  if (kinds[e.kind]) RTG_SET(&r, MEMORY, kind, kinds[e.kind]);
  RTG_SET(&r, MEMORY, api, apis[e.api]);
  if (e.has & HAS_CORR) RTG_SET(&r, MEMORY, corr, e.corr);
  if (e.has & HAS_POOL) RTG_SET(&r, MEMORY, pool, e.pool);
  /* names from the tables above: nothing to scan for */
  RTG_CLEAN(&r, MEMORY, op);
  RTG_CLEAN(&r, MEMORY, kind);
  RTG_CLEAN(&r, MEMORY, api);
  return rtg_entry_record(out, cap, &r);
}

/* After a call that succeeded: its entry, unless the tracer made it.  pool:
 * the pool's index in the table, or -1 (its agent and kind unknown, or a
 * call without a pool). */
static void record(int op, int api, uint64_t t0, uint64_t addr, uint64_t size, bool has_size,
                   int pool, uint64_t pool_handle) {
  uint64_t t1 = rtg_stamp();
  rtg_thread_state *ts = &rtg_tls;
  if (ts->inside) return;
  mem_entry e = {.op = (uint8_t)op,
                 .api = (uint8_t)api,
                 .start = t0,
                 .dur = t1 > t0 ? t1 - t0 : 0,
                 .addr = addr,
                 .size = size,
                 .corr = ts->corr,
                 .pool = pool_handle};
  e.has = (has_size ? HAS_SIZE : 0) | (ts->corr ? HAS_CORR : 0) | (pool_handle ? HAS_POOL : 0);
  if (pool >= 0) {
    e.agent = pools[pool].agent;
    e.has |= HAS_AGENT;
    e.kind = pools[pool].host ? 2 : 1;
  }
  if (op == M_LOCK || api == A_SVM_ATTRIBUTES_SET) {
    e.kind = op == M_LOCK ? 3 : 4;
    if (pool < 0 && host_agent >= 0) e.agent = (uint32_t)host_agent, e.has |= HAS_AGENT;
  }
  rtg_emit_entry_on(ts, format_mem, &e, sizeof e);
}

/* Reserved address ranges, until freed: those reserved (t0: the reserve's
 * start) and those recorded as managed memory.  A reserve the table has no
 * room for is not remembered: its range can then record nothing. */
enum { MAX_RANGES = 1024 };
static struct range {
  uint64_t addr, size, t0;
  bool managed;
} ranges[MAX_RANGES];
static uint32_t n_ranges;
static rtg_spin ranges_lock;

static void range_add(uint64_t addr, uint64_t size, uint64_t t0) {
  rtg_spin_lock(&ranges_lock);
  if (n_ranges < MAX_RANGES) ranges[n_ranges++] = (struct range){addr, size, t0, false};
  rtg_spin_unlock(&ranges_lock);
}

/* The range reserved at exactly [addr, addr + size) made managed: its
 * reserve's start, or 0 (none, or managed already). */
static uint64_t range_make_managed(uint64_t addr, uint64_t size) {
  uint64_t t0 = 0;
  rtg_spin_lock(&ranges_lock);
  for (uint32_t i = 0; i < n_ranges; i++)
    if (ranges[i].addr == addr) {
      if (ranges[i].size == size && !ranges[i].managed) {
        ranges[i].managed = true;
        t0 = ranges[i].t0 ? ranges[i].t0 : 1;
      }
      break;
    }
  rtg_spin_unlock(&ranges_lock);
  return t0;
}

/* The range at addr forgotten: whether it was managed memory. */
static bool range_drop(uint64_t addr) {
  bool managed = false;
  rtg_spin_lock(&ranges_lock);
  for (uint32_t i = 0; i < n_ranges; i++)
    if (ranges[i].addr == addr) {
      managed = ranges[i].managed;
      ranges[i] = ranges[--n_ranges];
      break;
    }
  rtg_spin_unlock(&ranges_lock);
  return managed;
}

static hsa_status_t hook_pool_allocate(hsa_amd_memory_pool_t pool, size_t size, uint32_t flags,
                                       void **ptr) {
  uint64_t t0 = rtg_stamp();
  hsa_status_t st = rtg_real.hsa_amd_memory_pool_allocate(pool, size, flags, ptr);
  if (st == HSA_STATUS_SUCCESS && ptr && *ptr)
    record(M_ALLOC, A_POOL_ALLOCATE, t0, (uint64_t)(uintptr_t)*ptr, size, true,
           pool_find(pool.handle), pool.handle);
  return st;
}

static hsa_status_t hook_pool_free(void *ptr) {
  uint64_t t0 = rtg_stamp();
  hsa_status_t st = rtg_real.hsa_amd_memory_pool_free(ptr);
  if (st == HSA_STATUS_SUCCESS && ptr)
    record(M_FREE, A_POOL_FREE, t0, (uint64_t)(uintptr_t)ptr, 0, false, -1, 0);
  return st;
}

static hsa_status_t hook_lock(void *host_ptr, size_t size, hsa_agent_t *agents, int num_agent,
                              void **agent_ptr) {
  uint64_t t0 = rtg_stamp();
  hsa_status_t st = rtg_real.hsa_amd_memory_lock(host_ptr, size, agents, num_agent, agent_ptr);
  if (st == HSA_STATUS_SUCCESS && host_ptr)
    record(M_LOCK, A_LOCK, t0, (uint64_t)(uintptr_t)host_ptr, size, true, -1, 0);
  return st;
}

static hsa_status_t hook_lock_to_pool(void *host_ptr, size_t size, hsa_agent_t *agents,
                                      int num_agent, hsa_amd_memory_pool_t pool, uint32_t flags,
                                      void **agent_ptr) {
  uint64_t t0 = rtg_stamp();
  hsa_status_t st = rtg_real.hsa_amd_memory_lock_to_pool(host_ptr, size, agents, num_agent, pool,
                                                         flags, agent_ptr);
  if (st == HSA_STATUS_SUCCESS && host_ptr)
    record(M_LOCK, A_LOCK_TO_POOL, t0, (uint64_t)(uintptr_t)host_ptr, size, true,
           pool_find(pool.handle), pool.handle);
  return st;
}

static hsa_status_t hook_unlock(void *host_ptr) {
  uint64_t t0 = rtg_stamp();
  hsa_status_t st = rtg_real.hsa_amd_memory_unlock(host_ptr);
  if (st == HSA_STATUS_SUCCESS && host_ptr)
    record(M_UNLOCK, A_UNLOCK, t0, (uint64_t)(uintptr_t)host_ptr, 0, false, -1, 0);
  return st;
}

static hsa_status_t hook_vmem_create(hsa_amd_memory_pool_t pool, size_t size,
                                     rtg_hsa_amd_memory_type_t type, uint64_t flags,
                                     rtg_hsa_amd_vmem_alloc_handle_t *handle) {
  uint64_t t0 = rtg_stamp();
  hsa_status_t st = rtg_real.hsa_amd_vmem_handle_create(pool, size, type, flags, handle);
  if (st == HSA_STATUS_SUCCESS && handle && handle->handle)
    record(M_ALLOC, A_VMEM_CREATE, t0, handle->handle, size, true, pool_find(pool.handle),
           pool.handle);
  return st;
}

static hsa_status_t hook_vmem_release(rtg_hsa_amd_vmem_alloc_handle_t handle) {
  uint64_t t0 = rtg_stamp();
  hsa_status_t st = rtg_real.hsa_amd_vmem_handle_release(handle);
  if (st == HSA_STATUS_SUCCESS && handle.handle)
    record(M_FREE, A_VMEM_RELEASE, t0, handle.handle, 0, false, -1, 0);
  return st;
}

static hsa_status_t hook_reserve(void **va, size_t size, uint64_t address, uint64_t flags) {
  uint64_t t0 = rtg_stamp();
  hsa_status_t st = rtg_real.hsa_amd_vmem_address_reserve(va, size, address, flags);
  if (st == HSA_STATUS_SUCCESS && va && *va && !rtg_tls.inside)
    range_add((uint64_t)(uintptr_t)*va, size, t0);
  return st;
}

static hsa_status_t hook_reserve_align(void **va, size_t size, uint64_t address, uint64_t alignment,
                                       uint64_t flags) {
  uint64_t t0 = rtg_stamp();
  hsa_status_t st =
      rtg_real.hsa_amd_vmem_address_reserve_align(va, size, address, alignment, flags);
  if (st == HSA_STATUS_SUCCESS && va && *va && !rtg_tls.inside)
    range_add((uint64_t)(uintptr_t)*va, size, t0);
  return st;
}

static hsa_status_t hook_svm_set(void *ptr, size_t size, hsa_amd_svm_attribute_pair_t *attrs,
                                 size_t n) {
  hsa_status_t st = rtg_real.hsa_amd_svm_attributes_set(ptr, size, attrs, n);
  if (st == HSA_STATUS_SUCCESS && ptr) {
    uint64_t t0 = range_make_managed((uint64_t)(uintptr_t)ptr, size);
    if (!t0 && !rtg_tls.inside) t0 = rtg_managed_os_mark((uint64_t)(uintptr_t)ptr, size);
    if (t0) record(M_ALLOC, A_SVM_ATTRIBUTES_SET, t0, (uint64_t)(uintptr_t)ptr, size, true, -1, 0);
  }
  return st;
}

static hsa_status_t hook_address_free(void *va, size_t size) {
  uint64_t t0 = rtg_stamp();
  hsa_status_t st = rtg_real.hsa_amd_vmem_address_free(va, size);
  if (st == HSA_STATUS_SUCCESS && va && range_drop((uint64_t)(uintptr_t)va))
    record(M_FREE, A_VMEM_ADDRESS_FREE, t0, (uint64_t)(uintptr_t)va, 0, false, -1, 0);
  return st;
}

static void managed_free(uint64_t addr, uint64_t t0) {
  record(M_FREE, A_MUNMAP, t0, addr, 0, false, -1, 0);
}

void rtg_memory_after_fork(void) {
  n_ranges = 0; /* the parent's: its file has their allocations */
  rtg_spin_init(&ranges_lock);
  rtg_managed_os_after_fork();
}

void rtg_memory_init(void) {
  n_pools = 0;
  rtg_agent *host = rtg_agent_host();
  host_agent = host ? (int)host->index : -1;
  if (rtg_real.hsa_iterate_agents && rtg_real.hsa_amd_agent_iterate_memory_pools)
    rtg_real.hsa_iterate_agents(add_agent_pools, NULL);
  if (rtg_real.hsa_amd_memory_pool_allocate)
    rtg_impl.hsa_amd_memory_pool_allocate = hook_pool_allocate;
  if (rtg_real.hsa_amd_memory_pool_free) rtg_impl.hsa_amd_memory_pool_free = hook_pool_free;
  if (rtg_real.hsa_amd_memory_lock) rtg_impl.hsa_amd_memory_lock = hook_lock;
  if (rtg_real.hsa_amd_memory_lock_to_pool)
    rtg_impl.hsa_amd_memory_lock_to_pool = hook_lock_to_pool;
  if (rtg_real.hsa_amd_memory_unlock) rtg_impl.hsa_amd_memory_unlock = hook_unlock;
  if (rtg_real.hsa_amd_vmem_handle_create && rtg_real.hsa_amd_vmem_handle_release) {
    rtg_impl.hsa_amd_vmem_handle_create = hook_vmem_create;
    rtg_impl.hsa_amd_vmem_handle_release = hook_vmem_release;
  }
  n_ranges = 0;
  rtg_spin_init(&ranges_lock);
  if (rtg_real.hsa_amd_svm_attributes_set) {
    rtg_impl.hsa_amd_svm_attributes_set = hook_svm_set;
    rtg_managed_os_install(managed_free);
  }
  if (rtg_real.hsa_amd_svm_attributes_set && rtg_real.hsa_amd_vmem_address_free) {
    if (rtg_real.hsa_amd_vmem_address_reserve) rtg_impl.hsa_amd_vmem_address_reserve = hook_reserve;
    if (rtg_real.hsa_amd_vmem_address_reserve_align)
      rtg_impl.hsa_amd_vmem_address_reserve_align = hook_reserve_align;
    rtg_impl.hsa_amd_vmem_address_free = hook_address_free;
  }
}
