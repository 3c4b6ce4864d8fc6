/* tp_copy_engine: the AMD-extension entries of ROCR >= 5.6 a program calls
 * for copies on a chosen SDMA engine: hsa_amd_memory_copy_engine_status
 * (which engines are free for host->device), then
 * hsa_amd_memory_async_copy_on_engine host->device and back on the first
 * one; the data must match.  The functions are looked up at run time, as
 * Debian 12's headers (ROCm 5.2.3) lack them: exit 77 when the runtime has
 * none.  (HIP >= 6.4 copies through the same entry.) */
#include <dlfcn.h>
#include <string.h>

#include "tp_common.h"

typedef hsa_status_t (*on_engine_fn)(void *dst, hsa_agent_t dst_agent, const void *src,
                                     hsa_agent_t src_agent, size_t size, uint32_t ndeps,
                                     const hsa_signal_t *deps, hsa_signal_t done, int engine_id,
                                     bool force_copy_on_sdma);
typedef hsa_status_t (*status_fn)(hsa_agent_t dst_agent, hsa_agent_t src_agent, uint32_t *mask);

int main(void) {
  on_engine_fn on_engine =
      (on_engine_fn)(uintptr_t)dlsym(RTLD_DEFAULT, "hsa_amd_memory_async_copy_on_engine");
  status_fn status = (status_fn)(uintptr_t)dlsym(RTLD_DEFAULT, "hsa_amd_memory_copy_engine_status");
  if (!on_engine || !status) {
    printf("SKIP: this HSA runtime has no hsa_amd_memory_async_copy_on_engine (ROCm < 5.6)\n");
    return 77;
  }
  sg_system_t sys;
  sg_init(&sys);
  hsa_agent_t gpu = sys.gpu[0].agent;
  enum { SIZE = 1 << 16 };
  unsigned char *h = sg_alloc(sys.host, SIZE, &sys), *back = sg_alloc(sys.host, SIZE, &sys);
  unsigned char *d = sg_alloc(sys.gpu[0].vram, SIZE, &sys);
  for (int i = 0; i < SIZE; i++) h[i] = (unsigned char)(i * 7 + 3);
  memset(back, 0, SIZE);
  /* per direction, the lowest free engine (HSA_AMD_SDMA_ENGINE_n = 1 << n) */
  uint32_t to_dev = 0, to_host = 0;
  hsa_status_t st1 = status(gpu, sys.cpu, &to_dev), st2 = status(sys.cpu, gpu, &to_host);
  printf("engine status: %s\n",
         st1 == HSA_STATUS_SUCCESS && st2 == HSA_STATUS_SUCCESS ? "ok" : "error");
  printf("a free engine each way: %s\n", to_dev && to_host ? "yes" : "NO");
  if (!to_dev || !to_host) return 1;
  hsa_signal_t s;
  CHECK(hsa_signal_create(1, 0, NULL, &s));
  CHECK(on_engine(d, gpu, h, sys.cpu, SIZE, 0, NULL, s, (int)(to_dev & -to_dev), true));
  sg_wait(s);
  hsa_signal_store_screlease(s, 1);
  CHECK(on_engine(back, sys.cpu, d, gpu, SIZE, 0, NULL, s, (int)(to_host & -to_host), true));
  sg_wait(s);
  printf("data back from the device: %s\n", memcmp(h, back, SIZE) ? "WRONG" : "same");
  CHECK(hsa_signal_destroy(s));
  void *bufs[] = {h, back, d};
  for (int i = 0; i < 3; i++) CHECK(hsa_amd_memory_pool_free(bufs[i]));
  CHECK(hsa_shut_down());
  return 0;
}
