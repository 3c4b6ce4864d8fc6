/* sg_copy: async copies host->device->device->host round-trip the data, on
 * every GPU (SDMA queues by default; ROCR's blit kernels with
 * HSA_ENABLE_SDMA=0), plus a fill through hsa_amd_memory_fill. Sizes are odd
 * on purpose, offsets are unaligned, and one copy is small (ROCR may take
 * another path below 16 KiB). */
#include <string.h>

#include "common.h"

static void copy(void *dst, hsa_agent_t da, const void *src, hsa_agent_t sa, size_t n,
                 hsa_signal_t s) {
  hsa_signal_store_screlease(s, 1);
  CHECK(hsa_amd_memory_async_copy(dst, da, src, sa, n, 0, NULL, s));
  sg_wait(s);
}

int main(void) {
  sg_system_t sys;
  sg_init(&sys);
  CHECK(hsa_amd_profiling_async_copy_enable(1));
  static const size_t sizes[] = {4096 + 3, (1u << 20) + 13};
  hsa_signal_t s;
  CHECK(hsa_signal_create(1, 0, NULL, &s));
  for (int g = 0; g < sys.ngpus; g++) {
    hsa_agent_t gpu = sys.gpu[g].agent;
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
      size_t n = sizes[k];
      unsigned char *h1 = sg_alloc(sys.host, n + 1, &sys), *h2 = sg_alloc(sys.host, n + 1, &sys);
      unsigned char *d1 = sg_alloc(sys.gpu[g].vram, n + 1, &sys);
      unsigned char *d2 = sg_alloc(sys.gpu[g].vram, n + 1, &sys);
      for (size_t i = 0; i < n; i++) h1[i] = (unsigned char)(i * 7 + 3);
      memset(h2, 0, n + 1);
      copy(d1, gpu, h1, sys.cpu, n, s);             /* H2D */
      copy(d2 + 1, gpu, d1, gpu, n - 1, s);         /* D2D, unaligned */
      copy(h2 + 1, sys.cpu, d2 + 1, gpu, n - 1, s); /* D2H */
      hsa_amd_profiling_async_copy_time_t t;
      CHECK(hsa_amd_profiling_get_async_copy_time(s, &t));
      printf("gpu%d: %zu bytes H2D D2D D2H: %s, times %s\n", g, n,
             memcmp(h1, h2 + 1, n - 1) ? "MISMATCH" : "ok", t.end >= t.start ? "ok" : "BAD");
      CHECK(hsa_amd_memory_fill(d1, 0xdeadbeef, n / 4));
      copy(h2, sys.cpu, d1, gpu, n, s);
      int bad = 0;
      for (size_t i = 0; i < n / 4; i++) bad += ((uint32_t *)h2)[i] != 0xdeadbeef;
      printf("gpu%d: fill %zu dwords: %s\n", g, n / 4, bad ? "MISMATCH" : "ok");
      CHECK(hsa_amd_memory_pool_free(h1));
      CHECK(hsa_amd_memory_pool_free(h2));
      CHECK(hsa_amd_memory_pool_free(d1));
      CHECK(hsa_amd_memory_pool_free(d2));
    }
  }
  CHECK(hsa_signal_destroy(s));
  CHECK(hsa_shut_down());
  return 0;
}
