/* sg_idle [SECONDS]: an initialised program with two queues per GPU that
 * does nothing must cost almost no CPU: simgpu polls no doorbell in a busy
 * loop. Prints whether the process used under 5% of one core. */
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "common.h"

static double cpu_seconds(void) {
  struct rusage r;
  getrusage(RUSAGE_SELF, &r);
  return (double)r.ru_utime.tv_sec + (double)r.ru_stime.tv_sec +
         ((double)r.ru_utime.tv_usec + (double)r.ru_stime.tv_usec) / 1e6;
}

static double wall_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
  double secs = argc > 1 ? atof(argv[1]) : 2.0;
  sg_system_t sys;
  sg_init(&sys);
  hsa_queue_t *q[2 * SG_MAX_GPUS];
  int n = 0;
  for (int g = 0; g < sys.ngpus; g++)
    for (int i = 0; i < 2; i++, n++)
      CHECK(hsa_queue_create(sys.gpu[g].agent, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX,
                             UINT32_MAX, &q[n]));
  usleep(100000); /* let the workers go from hot polling to parked */
  double c0 = cpu_seconds(), w0 = wall_seconds();
  usleep((useconds_t)(secs * 1e6));
  double pct = 100.0 * (cpu_seconds() - c0) / (wall_seconds() - w0);
  fprintf(stderr, "sg_idle: %.2f%% of one core with %d idle queues\n", pct, n);
  printf("idle with %d queues below 5%% of a core: %s\n", n, pct < 5.0 ? "yes" : "no");
  for (int i = 0; i < n; i++) CHECK(hsa_queue_destroy(q[i]));
  CHECK(hsa_shut_down());
  return 0;
}
