/* hsa_threads [THREADS [DISPATCHES]]: THREADS host threads (default 4), each
 * with its own queue, each submitting DISPATCHES vadd dispatches (default
 * 100) and checking every result. Prints a deterministic summary. */
#define _GNU_SOURCE
#include <pthread.h>
#include <string.h>

#include "hsa_common.h"

#define N 1024

static ex_hsa_t h;
static int dispatches = 100;

static void *worker(void *arg) {
  long id = (long)arg;
  hsa_queue_t *q;
  CHECK(hsa_queue_create(h.gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &q));
  float *a = ex_alloc(&h, h.host, N * 4), *b = ex_alloc(&h, h.host, N * 4);
  float *c = ex_alloc(&h, h.host, N * 4);
  void **args = ex_alloc(&h, h.kernarg, 64);
  args[0] = a, args[1] = b, args[2] = c;
  hsa_signal_t done;
  CHECK(hsa_signal_create(1, 0, NULL, &done));
  long bad = 0;
  for (int it = 0; it < dispatches; it++) {
    for (int i = 0; i < N; i++) a[i] = (float)(i + it), b[i] = (float)id, c[i] = -1;
    hsa_signal_store_relaxed(done, 1);
    hsa_kernel_dispatch_packet_t d;
    ex_dispatch_packet(&d, h.vadd, args, N, done);
    ex_submit(q, &d);
    ex_wait(done);
    for (int i = 0; i < N; i++) bad += c[i] != (float)(i + it) + (float)id;
  }
  CHECK(hsa_signal_destroy(done));
  void *mem[] = {a, b, c, args};
  for (int i = 0; i < 4; i++) CHECK(hsa_amd_memory_pool_free(mem[i]));
  CHECK(hsa_queue_destroy(q));
  return (void *)bad;
}

int main(int argc, char **argv) {
  int threads = argc > 1 ? atoi(argv[1]) : 4;
  if (argc > 2) dispatches = atoi(argv[2]);
  if (threads < 1 || threads > 64 || dispatches < 1) {
    fprintf(stderr, "usage: hsa_threads [THREADS(1-64) [DISPATCHES]]\n");
    return 2;
  }
  ex_init(&h, argv[0]);
  ex_emulate_vadd_if_simulated();
  pthread_t th[64];
  for (long i = 0; i < threads; i++) pthread_create(&th[i], NULL, worker, (void *)i);
  long bad = 0;
  for (int i = 0; i < threads; i++) {
    void *r;
    pthread_join(th[i], &r);
    bad += (long)r;
  }
  CHECK(hsa_shut_down());
  printf("hsa_threads: %d threads x %d dispatches on %d queues, result %s\n", threads, dispatches,
         threads, bad ? "WRONG" : "ok");
  return bad ? 1 : 0;
}
