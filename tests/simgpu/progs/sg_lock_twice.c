/* sg_lock_twice: host memory locked twice at one address with two sizes
 * (HIP does so when a buffer it locked is freed and the next one of another
 * size comes back at the same address), used by a GPU copy through each
 * lock's agent pointer, then unlocked twice and locked again.  Every byte
 * that comes back is checked. */
#include <stdlib.h>
#include <string.h>

#include "common.h"

enum { PAGE = 4096 };

/* Copy n bytes from host memory (its agent pointer src) to the GPU and
 * back into out; how many differ from want. */
static size_t round_trip(const sg_system_t *sys, void *src, unsigned char *out,
                         const unsigned char *want, size_t n, hsa_signal_t s) {
  hsa_agent_t gpu = sys->gpu[0].agent;
  unsigned char *d = sg_alloc(sys->gpu[0].vram, n, sys);
  unsigned char *back = sg_alloc(sys->host, n, sys);
  hsa_signal_store_screlease(s, 1);
  CHECK(hsa_amd_memory_async_copy(d, gpu, src, sys->cpu, n, 0, NULL, s));
  sg_wait(s);
  hsa_signal_store_screlease(s, 1);
  CHECK(hsa_amd_memory_async_copy(back, sys->cpu, d, gpu, n, 0, NULL, s));
  sg_wait(s);
  memcpy(out, back, n);
  size_t bad = 0;
  for (size_t i = 0; i < n; i++) bad += out[i] != want[i];
  CHECK(hsa_amd_memory_pool_free(d));
  CHECK(hsa_amd_memory_pool_free(back));
  return bad;
}

int main(void) {
  sg_system_t sys;
  sg_init(&sys);
  unsigned char *p = aligned_alloc(PAGE, 2 * PAGE), *out = malloc(2 * PAGE);
  if (!p || !out) return 1;
  for (size_t i = 0; i < 2 * PAGE; i++) p[i] = (unsigned char)(i * 13 + 5);
  hsa_signal_t s;
  CHECK(hsa_signal_create(1, 0, NULL, &s));
  hsa_agent_t gpu = sys.gpu[0].agent;
  void *small, *large;
  CHECK(hsa_amd_memory_lock(p, PAGE, &gpu, 1, &small));
  CHECK(hsa_amd_memory_lock(p, 2 * PAGE, &gpu, 1, &large));
  printf("one page through the first lock: %zu bytes wrong\n",
         round_trip(&sys, small, out, p, PAGE, s));
  printf("two pages through the second lock: %zu bytes wrong\n",
         round_trip(&sys, large, out, p, 2 * PAGE, s));
  CHECK(hsa_amd_memory_unlock(p));
  CHECK(hsa_amd_memory_unlock(p));
  printf("unlocked twice\n");
  CHECK(hsa_amd_memory_lock(p, 2 * PAGE, &gpu, 1, &large));
  printf("locked again: %zu bytes wrong\n", round_trip(&sys, large, out, p, 2 * PAGE, s));
  CHECK(hsa_amd_memory_unlock(p));
  CHECK(hsa_signal_destroy(s));
  CHECK(hsa_shut_down());
  free(p);
  free(out);
  printf("done\n");
  return 0;
}
