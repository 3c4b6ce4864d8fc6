// tp_hip_async: stream-ordered memory (hipMallocAsync, hipFreeAsync) on one
// stream: 4 MiB and 6 MiB taken, filled by the GPU, read back and checked,
// given back, and 4 MiB taken again after the first is freed.  HIP 7 takes
// pool memory through the HSA virtual memory API (a handle of physical
// memory mapped into a reserved range); earlier HIP from plain device
// memory.
#include <hip/hip_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../examples/hip_check.h"

enum { MiB = 1 << 20 };

// Fill p (n bytes) with v on the GPU, read it back: how many bytes differ.
static size_t fill_and_check(hipStream_t s, void *p, size_t n, int v, unsigned char *host) {
  CK(hipMemsetAsync(p, v, n, s));
  CK(hipMemcpyAsync(host, p, n, hipMemcpyDeviceToHost, s));
  CK(hipStreamSynchronize(s));
  size_t bad = 0;
  for (size_t i = 0; i < n; i++) bad += host[i] != (unsigned char)v;
  return bad;
}

int main() {
  hipStream_t s;
  CK(hipSetDevice(0));
  CK(hipStreamCreate(&s));
  unsigned char *host = (unsigned char *)malloc(6 * MiB);
  if (!host) return 1;
  printf("hipMallocAsync through the virtual memory API: %s\n",
         HIP_VERSION_MAJOR >= 7 ? "yes" : "no");
  void *a, *b, *c;
  CK(hipMallocAsync(&a, 4 * MiB, s));
  CK(hipMallocAsync(&b, 6 * MiB, s));
  printf("hipMallocAsync 4 MiB: %zu bytes wrong\n", fill_and_check(s, a, 4 * MiB, 0x5a, host));
  printf("hipMallocAsync 6 MiB: %zu bytes wrong\n", fill_and_check(s, b, 6 * MiB, 0xa5, host));
  CK(hipFreeAsync(a, s));
  CK(hipMallocAsync(&c, 4 * MiB, s));
  printf("hipMallocAsync 4 MiB again: %zu bytes wrong\n",
         fill_and_check(s, c, 4 * MiB, 0x3c, host));
  printf("the 6 MiB kept its bytes: %s\n",
         fill_and_check(s, b, 0, 0, host) == 0 &&
                 hipMemcpy(host, b, 6 * MiB, hipMemcpyDeviceToHost) == hipSuccess &&
                 host[0] == 0xa5 && host[6 * MiB - 1] == 0xa5
             ? "yes"
             : "no");
  CK(hipFreeAsync(b, s));
  CK(hipFreeAsync(c, s));
  CK(hipStreamSynchronize(s));
  // (no hipStreamDestroy: HIP 5.2.3's spins for ever on a stream that
  // took pool memory, untraced too)
  free(host);
  printf("done\n");
  return 0;
}
