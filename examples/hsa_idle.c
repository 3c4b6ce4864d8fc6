/* hsa_idle [SECONDS]: initialises HSA, creates two queues, loads the vadd
 * code object and then does nothing for SECONDS (default 2): the baseline of
 * an idle traced program. Reports on stderr the CPU it used while idle. */
#define _GNU_SOURCE
#include <sys/resource.h>
#include <unistd.h>

#include "hsa_common.h"

int main(int argc, char **argv) {
  double secs = argc > 1 ? atof(argv[1]) : 2.0;
  ex_hsa_t h;
  ex_init(&h, argv[0]);
  hsa_queue_t *q[2];
  for (int i = 0; i < 2; i++)
    CHECK(hsa_queue_create(h.gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX,
                           &q[i]));
  struct rusage r0, r1;
  getrusage(RUSAGE_SELF, &r0);
  usleep((useconds_t)(secs * 1e6));
  getrusage(RUSAGE_SELF, &r1);
  double cpu = (double)(r1.ru_utime.tv_sec - r0.ru_utime.tv_sec) +
               (double)(r1.ru_stime.tv_sec - r0.ru_stime.tv_sec) +
               (double)(r1.ru_utime.tv_usec - r0.ru_utime.tv_usec + r1.ru_stime.tv_usec -
                        r0.ru_stime.tv_usec) /
                   1e6;
  fprintf(stderr, "hsa_idle: %.2f%% of one core while idle\n", 100.0 * cpu / secs);
  for (int i = 0; i < 2; i++) CHECK(hsa_queue_destroy(q[i]));
  CHECK(hsa_shut_down());
  printf("hsa_idle: idle %.1f s with 2 queues\n", secs);
  return 0;
}
