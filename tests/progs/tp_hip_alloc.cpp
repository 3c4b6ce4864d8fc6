// tp_hip_alloc: allocations and frees in a known pattern, each printed as
// it is made, for the memory records and the in-use curve per agent:
// device memory (hipMalloc), pinned host memory (hipHostMalloc), host
// memory registered (hipHostRegister), managed memory (hipMallocManaged),
// stream-ordered memory (hipMallocAsync/hipFreeAsync, where the release has
// them), and one device allocation never freed.
#include <hip/hip_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../examples/hip_check.h"

enum { MiB = 1 << 20 };

int main(void) {
  void *a, *b, *c, *h, *leak;
  CK(hipSetDevice(0));
  CK(hipFree(0)); // the runtime's own start-up allocations come before the pattern
  printf("begin\n");
  CK(hipMalloc(&a, 1 * MiB));
  printf("hipMalloc %d\n", 1 * MiB);
  CK(hipMalloc(&b, 3 * MiB));
  printf("hipMalloc %d\n", 3 * MiB);
  CK(hipHostMalloc(&h, 2 * MiB, hipHostMallocDefault));
  printf("hipHostMalloc %d\n", 2 * MiB);
  CK(hipFree(a));
  printf("hipFree %d\n", 1 * MiB);
  CK(hipMalloc(&c, 5 * MiB));
  printf("hipMalloc %d\n", 5 * MiB);
  void *reg = aligned_alloc(4096, 4 * MiB);
  if (!reg) return 1;
  CK(hipHostRegister(reg, 4 * MiB, hipHostRegisterDefault));
  printf("hipHostRegister %d\n", 4 * MiB);
  CK(hipHostUnregister(reg));
  printf("hipHostUnregister %d\n", 4 * MiB);
  free(reg);
  CK(hipFree(b));
  printf("hipFree %d\n", 3 * MiB);
  CK(hipHostFree(h));
  printf("hipHostFree %d\n", 2 * MiB);
  CK(hipFree(c));
  printf("hipFree %d\n", 5 * MiB);
  CK(hipMalloc(&leak, 7 * MiB));
  printf("hipMalloc %d (never freed)\n", 7 * MiB);
  CK(hipDeviceSynchronize());
  printf("end\n");
  return 0;
}
