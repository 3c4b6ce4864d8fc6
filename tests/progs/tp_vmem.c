/* tp_vmem: physical memory from the HSA virtual memory API (ROCm 6.0 on;
 * HIP 7's stream-ordered pools, hipMallocAsync, take their memory there) in
 * a known pattern on the first GPU's device pool: 2 MiB and 6 MiB handles
 * made, an address range reserved and freed (no memory of its own), the
 * handles released.  The functions are looked up at run time: a runtime
 * without them, or refusing the first handle, says so and stops. */
#include <dlfcn.h>

#include "tp_common.h"

enum { MiB = 1 << 20 };

typedef struct vmem_handle {
  uint64_t handle;
} vmem_handle;
typedef hsa_status_t (*create_fn)(hsa_amd_memory_pool_t pool, size_t size, int type, uint64_t flags,
                                  vmem_handle *h);
typedef hsa_status_t (*release_fn)(vmem_handle h);
typedef hsa_status_t (*reserve_fn)(void **va, size_t size, uint64_t address, uint64_t flags);
typedef hsa_status_t (*addr_free_fn)(void *va, size_t size);

int main(void) {
  sg_system_t sys;
  sg_init(&sys);
  create_fn create = (create_fn)dlsym(RTLD_DEFAULT, "hsa_amd_vmem_handle_create");
  release_fn release = (release_fn)dlsym(RTLD_DEFAULT, "hsa_amd_vmem_handle_release");
  reserve_fn reserve = (reserve_fn)dlsym(RTLD_DEFAULT, "hsa_amd_vmem_address_reserve");
  addr_free_fn addr_free = (addr_free_fn)dlsym(RTLD_DEFAULT, "hsa_amd_vmem_address_free");
  if (!create || !release || !reserve || !addr_free) {
    printf("no virtual memory API in this runtime\n");
    return 0;
  }
  hsa_amd_memory_pool_t pool = sys.gpu[0].vram;
  vmem_handle a, b;
  void *va;
  /* (ROCm 5.7 has the functions, but its runtime refuses a handle on the
   * simulated GPU) */
  hsa_status_t st = create(pool, 2 * MiB, 0 /* HSA_AMD_MEMORY_TYPE_NONE */, 0, &a);
  if (st != HSA_STATUS_SUCCESS) {
    printf("the virtual memory API refuses a handle here (status %#x)\n", (unsigned)st);
    return 0;
  }
  printf("handle created %d\n", 2 * MiB);
  CHECK(create(pool, 6 * MiB, 0, 0, &b));
  printf("handle created %d\n", 6 * MiB);
  CHECK(reserve(&va, 8 * MiB, 0, 0));
  printf("addresses reserved %d\n", 8 * MiB);
  CHECK(release(a));
  printf("handle released %d\n", 2 * MiB);
  CHECK(addr_free(va, 8 * MiB));
  printf("addresses freed %d\n", 8 * MiB);
  CHECK(release(b));
  printf("handle released %d\n", 6 * MiB);
  return 0;
}
