/* Memory records: every allocation, free, lock and unlock the application
 * (or HIP on its behalf) makes through the runtime's table, recorded
 * whether or not HSA or HIP API tracing is on (include/rtg/record.h,
 * RTG_FIELDS_MEMORY).  HIP's hipMalloc, hipHostMalloc, hipFree,
 * hipHostRegister and their kin all end up in these HSA calls, so this one
 * level sees each allocation once; the record carries the correlation id
 * of the HIP call it was made in.  These calls are rare: each record is
 * made by hand (rtg_emit), with CLOCK_BOOTTIME read around the call.
 *
 * A pool's agent and kind come from a table of every agent's pools, made
 * at load (hsa_amd_agent_iterate_memory_pools). */
#include "hsa_side.h"

#include <stdbool.h>

enum { MAX_POOLS = 512 };
static struct {
  uint64_t handle;
  uint32_t agent;
  bool host; /* a CPU agent's pool */
} pools[MAX_POOLS];
static uint32_t n_pools;

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

static void record(const char *op, const char *api, uint64_t t0, uint64_t addr, uint64_t size,
                   bool has_size, int pool, const char *kind, uint64_t pool_handle) {
  rtg_thread_state *ts = &rtg_tls;
  if (ts->inside) return; /* the tracer's own calls */
  uint64_t t1 = rtg_now();
  rtg_record r;
  rtg_record_init(&r, RTG_KIND_MEMORY, rtg_pid(), rtg_tid());
  r.u.MEMORY.op = op;
  r.u.MEMORY.start = t0;
  r.u.MEMORY.stop = t1 > t0 ? t1 : t0;
  r.u.MEMORY.addr = addr;
  if (has_size) RTG_SET(&r, MEMORY, size, size);
  if (pool >= 0) {
    RTG_SET(&r, MEMORY, agent, pools[pool].agent);
    if (!kind) kind = pools[pool].host ? "host" : "device";
  } else if (kind) { /* a lock: the host's memory */
    rtg_agent *host = rtg_agent_host();
    if (host) RTG_SET(&r, MEMORY, agent, host->index);
  }
  if (kind) RTG_SET(&r, MEMORY, kind, kind);
  RTG_SET(&r, MEMORY, api, api);
  if (ts->corr) RTG_SET(&r, MEMORY, corr, ts->corr);
  if (pool_handle) RTG_SET(&r, MEMORY, pool, pool_handle);
  RTG_CLEAN(&r, MEMORY, op);
  RTG_CLEAN(&r, MEMORY, kind);
  RTG_CLEAN(&r, MEMORY, api);
  rtg_emit(&r);
}

static hsa_status_t hook_pool_allocate(hsa_amd_memory_pool_t pool, size_t size, uint32_t flags,
                                       void **ptr) {
  uint64_t t0 = rtg_now();
  hsa_status_t st = rtg_real.hsa_amd_memory_pool_allocate(pool, size, flags, ptr);
  if (st == HSA_STATUS_SUCCESS && ptr && *ptr)
    record("alloc", "hsa_amd_memory_pool_allocate", t0, (uint64_t)(uintptr_t)*ptr, size, true,
           pool_find(pool.handle), NULL, pool.handle);
  return st;
}

static hsa_status_t hook_pool_free(void *ptr) {
  uint64_t t0 = rtg_now();
  hsa_status_t st = rtg_real.hsa_amd_memory_pool_free(ptr);
  if (st == HSA_STATUS_SUCCESS && ptr)
    record("free", "hsa_amd_memory_pool_free", t0, (uint64_t)(uintptr_t)ptr, 0, false, -1, NULL, 0);
  return st;
}

static hsa_status_t hook_lock(void *host_ptr, size_t size, hsa_agent_t *agents, int num_agent,
                              void **agent_ptr) {
  uint64_t t0 = rtg_now();
  hsa_status_t st = rtg_real.hsa_amd_memory_lock(host_ptr, size, agents, num_agent, agent_ptr);
  if (st == HSA_STATUS_SUCCESS && host_ptr)
    record("lock", "hsa_amd_memory_lock", t0, (uint64_t)(uintptr_t)host_ptr, size, true, -1,
           "pinned", 0);
  return st;
}

static hsa_status_t hook_lock_to_pool(void *host_ptr, size_t size, hsa_agent_t *agents,
                                      int num_agent, hsa_amd_memory_pool_t pool, uint32_t flags,
                                      void **agent_ptr) {
  uint64_t t0 = rtg_now();
  hsa_status_t st = rtg_real.hsa_amd_memory_lock_to_pool(host_ptr, size, agents, num_agent, pool,
                                                         flags, agent_ptr);
  if (st == HSA_STATUS_SUCCESS && host_ptr)
    record("lock", "hsa_amd_memory_lock_to_pool", t0, (uint64_t)(uintptr_t)host_ptr, size, true,
           pool_find(pool.handle), "pinned", pool.handle);
  return st;
}

static hsa_status_t hook_unlock(void *host_ptr) {
  uint64_t t0 = rtg_now();
  hsa_status_t st = rtg_real.hsa_amd_memory_unlock(host_ptr);
  if (st == HSA_STATUS_SUCCESS && host_ptr)
    record("unlock", "hsa_amd_memory_unlock", t0, (uint64_t)(uintptr_t)host_ptr, 0, false, -1, NULL,
           0);
  return st;
}

void rtg_memory_init(void) {
  n_pools = 0;
  if (rtg_real.hsa_iterate_agents && rtg_real.hsa_amd_agent_iterate_memory_pools)
    rtg_real.hsa_iterate_agents(add_agent_pools, NULL);
  if (rtg_real.hsa_amd_memory_pool_allocate)
    rtg_impl.hsa_amd_memory_pool_allocate = hook_pool_allocate;
  if (rtg_real.hsa_amd_memory_pool_free) rtg_impl.hsa_amd_memory_pool_free = hook_pool_free;
  if (rtg_real.hsa_amd_memory_lock) rtg_impl.hsa_amd_memory_lock = hook_lock;
  if (rtg_real.hsa_amd_memory_lock_to_pool)
    rtg_impl.hsa_amd_memory_lock_to_pool = hook_lock_to_pool;
  if (rtg_real.hsa_amd_memory_unlock) rtg_impl.hsa_amd_memory_unlock = hook_unlock;
}
