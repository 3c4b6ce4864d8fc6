/* hsa_vadd [-n ITERATIONS]: vector add through the HSA runtime, the way a
 * tool sees real work: two queues, async copies, barrier-AND and barrier-OR
 * packets with cross-queue dependencies, and verified results.
 *
 * Each iteration submits, in order:
 *   2 host-to-device copies (a, b)            -> signals ca, cb
 *   queue 0: barrier-AND on ca, cb; vadd c = a + b       -> signal k0
 *   queue 1: barrier-OR on k0; vadd d = a + b            -> signal k1
 *   1 device-to-device copy c -> e (after k1), 1 device-to-host copy e -> host
 * so N iterations make 2N dispatches, 2N barriers (N AND, N OR), 4N copies.
 * stdout has only the deterministic summary; diagnostics go to stderr. */
#define _GNU_SOURCE
#include <string.h>
#include <unistd.h>

#include "hsa_common.h"

#define N 4096 /* elements per vector */

int main(int argc, char **argv) {
  int iterations = 4, opt;
  while ((opt = getopt(argc, argv, "n:")) != -1) {
    if (opt == 'n' && atoi(optarg) > 0) {
      iterations = atoi(optarg);
    } else {
      fprintf(stderr, "usage: hsa_vadd [-n ITERATIONS]\n");
      return 2;
    }
  }
  ex_hsa_t h;
  ex_init(&h, argv[0]);
  ex_emulate_vadd_if_simulated();

  hsa_queue_t *q[2];
  for (int i = 0; i < 2; i++) {
    CHECK(hsa_queue_create(h.gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX,
                           &q[i]));
    CHECK(hsa_amd_profiling_set_profiler_enabled(q[i], 1));
  }
  CHECK(hsa_amd_profiling_async_copy_enable(1));
  const size_t bytes = N * sizeof(float);
  float *ha = ex_alloc(&h, h.host, bytes), *hb = ex_alloc(&h, h.host, bytes);
  float *hout = ex_alloc(&h, h.host, bytes);
  float *a = ex_alloc(&h, h.vram, bytes), *b = ex_alloc(&h, h.vram, bytes);
  float *c = ex_alloc(&h, h.vram, bytes), *d = ex_alloc(&h, h.vram, bytes);
  float *e = ex_alloc(&h, h.vram, bytes);
  void **args0 = ex_alloc(&h, h.kernarg, 64), **args1 = ex_alloc(&h, h.kernarg, 64);
  args0[0] = a, args0[1] = b, args0[2] = c;
  args1[0] = a, args1[1] = b, args1[2] = d;

  hsa_signal_t ca, cb, k0, k1, b0, b1, cc, ch;
  hsa_signal_t *all[] = {&ca, &cb, &k0, &k1, &b0, &b1, &cc, &ch};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    CHECK(hsa_signal_create(1, 0, NULL, all[i]));

  int dispatches = 0, barriers_and = 0, barriers_or = 0, copies = 0, bad = 0;
  for (int it = 0; it < iterations; it++) {
    for (int i = 0; i < N; i++) ha[i] = (float)(i + it), hb[i] = (float)(2 * i);
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) hsa_signal_store_relaxed(*all[i], 1);

    CHECK(hsa_amd_memory_async_copy(a, h.gpu, ha, h.cpu, bytes, 0, NULL, ca));
    CHECK(hsa_amd_memory_async_copy(b, h.gpu, hb, h.cpu, bytes, 0, NULL, cb));
    copies += 2;

    hsa_barrier_and_packet_t bar;
    hsa_kernel_dispatch_packet_t k;
    hsa_signal_t deps[2] = {ca, cb};
    ex_barrier_packet(&bar, 0, deps, 2, b0);
    ex_submit(q[0], &bar);
    ex_dispatch_packet(&k, h.vadd, args0, N, k0);
    ex_submit(q[0], &k);
    barriers_and++, dispatches++;

    ex_barrier_packet(&bar, 1, &k0, 1, b1);
    ex_submit(q[1], &bar);
    ex_dispatch_packet(&k, h.vadd, args1, N, k1);
    ex_submit(q[1], &k);
    barriers_or++, dispatches++;

    CHECK(hsa_amd_memory_async_copy(e, h.gpu, c, h.gpu, bytes, 1, &k1, cc));
    CHECK(hsa_amd_memory_async_copy(hout, h.cpu, e, h.gpu, bytes, 1, &cc, ch));
    copies += 2;
    ex_wait(ch);
    ex_wait(b0);
    ex_wait(b1);

    for (int i = 0; i < N; i++) {
      float want = (float)(i + it) + (float)(2 * i);
      bad += hout[i] != want || d[i] != want;
    }
    hsa_amd_profiling_dispatch_time_t t;
    CHECK(hsa_amd_profiling_get_dispatch_time(h.gpu, k0, &t));
    fprintf(stderr, "hsa_vadd: iteration %d vadd took %llu ns\n", it,
            (unsigned long long)(t.end - t.start));
  }
  printf("hsa_vadd: %d iterations, %d dispatches, %d barriers (%d AND, %d OR), %d copies\n",
         iterations, dispatches, barriers_and + barriers_or, barriers_and, barriers_or, copies);
  printf("hsa_vadd: result %s\n", bad ? "WRONG" : "ok");

  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) CHECK(hsa_signal_destroy(*all[i]));
  void *mem[] = {ha, hb, hout, a, b, c, d, e, args0, args1};
  for (size_t i = 0; i < sizeof mem / sizeof mem[0]; i++) CHECK(hsa_amd_memory_pool_free(mem[i]));
  CHECK(hsa_queue_destroy(q[0]));
  CHECK(hsa_queue_destroy(q[1]));
  CHECK(hsa_shut_down());
  return bad ? 1 : 0;
}
