// tp_hip_alloc: allocations and frees in a known pattern, each printed as
// it is made, for the memory records and the in-use curve per agent:
// device memory (hipMalloc), pinned host memory (hipHostMalloc), host
// memory registered (hipHostRegister), managed memory (hipMallocManaged),
// stream-ordered memory (hipMallocAsync/hipFreeAsync before HIP 7: HIP's
// pool may keep the block), and one device allocation never freed.  With "--loop N": N pairs
// of hipMalloc and hipFree of 1 MiB after 100 for warm-up, and the time per
// pair (for the cost of the memory records, scripts/BENCHMARKS.md).
#include <hip/hip_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../examples/hip_check.h"

enum { MiB = 1 << 20 };

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

static int loop(int n) {
  void *p;
  CK(hipFree(0));
  for (int i = 0; i < 100; i++) {
    CK(hipMalloc(&p, MiB));
    CK(hipFree(p));
  }
  double t0 = now_ns();
  for (int i = 0; i < n; i++) {
    CK(hipMalloc(&p, MiB));
    CK(hipFree(p));
  }
  printf("%.0f ns per hipMalloc+hipFree\n", (now_ns() - t0) / n);
  return 0;
}

int main(int argc, char **argv) {
  void *a, *b, *c, *h, *leak;
  if (argc == 3 && !strcmp(argv[1], "--loop")) return loop(atoi(argv[2]));
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
  void *m, *q;
  CK(hipMallocManaged(&m, 2 * MiB, hipMemAttachGlobal));
  printf("hipMallocManaged %d\n", 2 * MiB);
  CK(hipFree(m));
  printf("hipFree %d\n", 2 * MiB);
#if HIP_VERSION_MAJOR < 7
  // (HIP 7's stream-ordered pools map their memory with the HSA vmem API,
  // which the simulated GPU does not have)
  hipStream_t s;
  CK(hipStreamCreate(&s));
  CK(hipMallocAsync(&q, 1 * MiB, s));
  printf("hipMallocAsync %d\n", 1 * MiB);
  CK(hipFreeAsync(q, s));
  CK(hipStreamSynchronize(s));
  printf("hipFreeAsync %d\n", 1 * MiB);
#else
  (void)q;
  printf("hipMallocAsync: not on HIP %d\n", HIP_VERSION_MAJOR);
#endif
  CK(hipMalloc(&leak, 7 * MiB));
  printf("hipMalloc %d (never freed)\n", 7 * MiB);
  CK(hipDeviceSynchronize());
  printf("end\n");
  return 0;
}
