/* tp_copies slow|rect|toggle: async-copy cases for the tracer.
 *   slow    a big host->device copy (slow SDMA, SIMGPU_SDMA_MBPS) and then a
 *           small device->host one on another engine: the small one must be
 *           seen complete while the big one still runs; the big one's data,
 *           copied back, must match (32 MiB: several SDMA packets, or one
 *           with a 30-bit count).
 *   rect    hsa_amd_memory_async_copy_rect host->device and back of a
 *           64-byte x 8-row x 2-slice box at an offset: the data must match.
 *   toggle  the program turns copy timestamps off, copies, turns them on,
 *           copies and reads its own copy's times (they must be sane).
 *   twice   the same host->device copy asked for twice in a row, the very
 *           same arguments (one signal, which both decrement): two calls
 *           the tracer would count as repeats, each submitting a copy. */
#include <string.h>
#include <time.h>

#include "tp_common.h"

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void copy(void *dst, hsa_agent_t da, const void *src, hsa_agent_t sa, size_t n,
                 hsa_signal_t s) {
  hsa_signal_store_screlease(s, 1);
  CHECK(hsa_amd_memory_async_copy(dst, da, src, sa, n, 0, NULL, s));
  sg_wait(s);
}

static int slow(sg_system_t *sys) {
  hsa_agent_t gpu = sys->gpu[0].agent;
  size_t big = 32u << 20, small = 1u << 20;
  char *hb = sg_alloc(sys->host, big, sys), *db = sg_alloc(sys->gpu[0].vram, big, sys);
  char *hs = sg_alloc(sys->host, small, sys), *ds = sg_alloc(sys->gpu[0].vram, small, sys);
  for (size_t i = 0; i < big; i++) hb[i] = (char)(i * 131 + i / 4093);
  hsa_signal_t sb, ss;
  CHECK(hsa_signal_create(1, 0, NULL, &sb));
  CHECK(hsa_signal_create(1, 0, NULL, &ss));
  CHECK(hsa_amd_memory_async_copy(db, gpu, hb, sys->cpu, big, 0, NULL, sb));
  uint64_t t0 = now_ns();
  CHECK(hsa_amd_memory_async_copy(hs, sys->cpu, ds, gpu, small, 0, NULL, ss));
  sg_wait(ss);
  uint64_t waited = now_ns() - t0;
  int big_running = hsa_signal_load_scacquire(sb) >= 1;
  sg_wait(sb);
  char *back = sg_alloc(sys->host, big, sys);
  copy(back, sys->cpu, db, gpu, big, sb);
  int same = !memcmp(back, hb, big);
  CHECK(hsa_signal_destroy(sb));
  CHECK(hsa_signal_destroy(ss));
  void *bufs[] = {hb, db, hs, ds, back};
  for (int i = 0; i < 5; i++) CHECK(hsa_amd_memory_pool_free(bufs[i]));
  printf("small copy seen done while the big one ran: %s\n", big_running ? "yes" : "NO");
  if (!big_running) fprintf(stderr, "small copy took %llu us\n", (unsigned long long)waited / 1000);
  printf("big copy data, copied back: %s\n", same ? "same" : "DIFFERENT");
  return 0;
}

static int rect(sg_system_t *sys) {
  hsa_agent_t gpu = sys->gpu[0].agent;
  enum { PITCH = 256, ROWS = 16, SLICES = 4, SLICE = PITCH * ROWS, SIZE = SLICE * SLICES };
  unsigned char *h = sg_alloc(sys->host, SIZE, sys), *back = sg_alloc(sys->host, SIZE, sys);
  unsigned char *d = sg_alloc(sys->gpu[0].vram, SIZE, sys);
  for (int i = 0; i < SIZE; i++) h[i] = (unsigned char)(i * 13 + 1);
  memset(back, 0, SIZE);
  memset(d, 0, SIZE);
  hsa_pitched_ptr_t hp = {h, PITCH, SLICE}, dp = {d, PITCH, SLICE}, bp = {back, PITCH, SLICE};
  hsa_dim3_t off = {16, 2, 1}, zero = {0, 0, 0}, range = {64, 8, 2};
  hsa_signal_t s;
  CHECK(hsa_signal_create(1, 0, NULL, &s));
  CHECK(hsa_amd_memory_async_copy_rect(&dp, &zero, &hp, &off, &range, gpu, hsaHostToDevice, 0, NULL,
                                       s));
  sg_wait(s);
  hsa_signal_store_screlease(s, 1);
  CHECK(hsa_amd_memory_async_copy_rect(&bp, &off, &dp, &zero, &range, gpu, hsaDeviceToHost, 0, NULL,
                                       s));
  sg_wait(s);
  int bad = 0, outside = 0;
  for (int z = 0; z < SLICES; z++)
    for (int y = 0; y < ROWS; y++)
      for (int x = 0; x < PITCH; x++) {
        int i = z * SLICE + y * PITCH + x;
        int in = x >= 16 && x < 16 + 64 && y >= 2 && y < 2 + 8 && z >= 1 && z < 1 + 2;
        if (in)
          bad += back[i] != h[i];
        else
          outside += back[i] != 0;
      }
  printf("rect copies H2D and D2H of 64x8x2 bytes: %s\n", bad || outside ? "MISMATCH" : "ok");
  CHECK(hsa_signal_destroy(s));
  void *bufs[] = {h, back, d};
  for (int i = 0; i < 3; i++) CHECK(hsa_amd_memory_pool_free(bufs[i]));
  return bad || outside;
}

static int toggle(sg_system_t *sys) {
  hsa_agent_t gpu = sys->gpu[0].agent;
  size_t n = 1u << 20;
  char *h = sg_alloc(sys->host, n, sys), *d = sg_alloc(sys->gpu[0].vram, n, sys);
  hsa_signal_t s;
  CHECK(hsa_signal_create(1, 0, NULL, &s));
  CHECK(hsa_amd_profiling_async_copy_enable(0));
  copy(d, gpu, h, sys->cpu, n, s);
  CHECK(hsa_amd_profiling_async_copy_enable(1));
  copy(h, sys->cpu, d, gpu, n, s);
  hsa_amd_profiling_async_copy_time_t t;
  CHECK(hsa_amd_profiling_get_async_copy_time(s, &t));
  printf("own copy times after enabling: %s\n", t.start && t.end >= t.start ? "ok" : "BAD");
  CHECK(hsa_amd_profiling_async_copy_enable(0));
  copy(d, gpu, h, sys->cpu, n, s);
  printf("3 copies done\n");
  CHECK(hsa_signal_destroy(s));
  CHECK(hsa_amd_memory_pool_free(h));
  CHECK(hsa_amd_memory_pool_free(d));
  return 0;
}

static int twice(sg_system_t *sys) {
  hsa_agent_t gpu = sys->gpu[0].agent;
  size_t n = 4096;
  char *h = sg_alloc(sys->host, n, sys), *d = sg_alloc(sys->gpu[0].vram, n, sys);
  hsa_signal_t s;
  CHECK(hsa_signal_create(2, 0, NULL, &s));
  CHECK(hsa_amd_memory_async_copy(d, gpu, h, sys->cpu, n, 0, NULL, s));
  CHECK(hsa_amd_memory_async_copy(d, gpu, h, sys->cpu, n, 0, NULL, s));
  sg_wait(s);
  printf("2 copies done\n");
  CHECK(hsa_signal_destroy(s));
  CHECK(hsa_amd_memory_pool_free(h));
  CHECK(hsa_amd_memory_pool_free(d));
  return 0;
}

int main(int argc, char **argv) {
  const char *what = argc > 1 ? argv[1] : "rect";
  sg_system_t sys;
  sg_init(&sys);
  int r = !strcmp(what, "slow")     ? slow(&sys)
          : !strcmp(what, "toggle") ? toggle(&sys)
          : !strcmp(what, "twice")  ? twice(&sys)
                                    : rect(&sys);
  CHECK(hsa_shut_down());
  return r;
}
