/* hsa_fork: a process that forks while using the GPU.
 *  1. the parent initialises HSA and runs 2 dispatches;
 *  2. child A forks without exec and only does host work (HSA state is not
 *     usable in a forked child: ROCR does not support it), then exits;
 *  3. child B forks and execs this program with --child, which initialises
 *     HSA itself and runs 2 dispatches;
 *  4. the parent waits for both, then runs 2 more dispatches.
 * Output order is fixed because the parent waits before printing again. */
#define _GNU_SOURCE
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hsa_common.h"

#define N 256

static int run_dispatches(ex_hsa_t *h, hsa_queue_t *q, int count) {
  float *a = ex_alloc(h, h->host, N * 4), *b = ex_alloc(h, h->host, N * 4);
  float *c = ex_alloc(h, h->host, N * 4);
  void **args = ex_alloc(h, h->kernarg, 64);
  args[0] = a, args[1] = b, args[2] = c;
  hsa_signal_t done;
  CHECK(hsa_signal_create(1, 0, NULL, &done));
  int bad = 0;
  for (int it = 0; it < count; it++) {
    for (int i = 0; i < N; i++) a[i] = (float)i, b[i] = (float)it, c[i] = 0;
    hsa_signal_store_relaxed(done, 1);
    hsa_kernel_dispatch_packet_t d;
    ex_dispatch_packet(&d, h->vadd, args, N, done);
    ex_submit(q, &d);
    ex_wait(done);
    for (int i = 0; i < N; i++) bad += c[i] != (float)(i + it);
  }
  CHECK(hsa_signal_destroy(done));
  void *mem[] = {a, b, c, args};
  for (int i = 0; i < 4; i++) CHECK(hsa_amd_memory_pool_free(mem[i]));
  return bad;
}

static int gpu_work(const char *who, const char *argv0, int count) {
  ex_hsa_t h;
  ex_init(&h, argv0);
  ex_emulate_vadd_if_simulated();
  hsa_queue_t *q;
  CHECK(hsa_queue_create(h.gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &q));
  int bad = run_dispatches(&h, q, count);
  CHECK(hsa_queue_destroy(q));
  CHECK(hsa_shut_down());
  printf("%s: %d dispatches, result %s\n", who, count, bad ? "WRONG" : "ok");
  fflush(stdout);
  return bad;
}

static int wait_child(pid_t pid) {
  int st;
  while (waitpid(pid, &st, 0) < 0) {
  }
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "--child")) return gpu_work("child (exec)", argv[0], 2) != 0;

  ex_hsa_t h;
  ex_init(&h, argv[0]);
  ex_emulate_vadd_if_simulated();
  hsa_queue_t *q;
  CHECK(hsa_queue_create(h.gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &q));
  int bad = run_dispatches(&h, q, 2);
  printf("parent: 2 dispatches before fork, result %s\n", bad ? "WRONG" : "ok");
  fflush(stdout); /* the children must not inherit buffered output */

  pid_t a = fork();
  if (a == 0) {
    long sum = 0;
    for (int i = 1; i <= 1000; i++) sum += i;
    printf("child (fork, host work only): sum %ld\n", sum);
    fflush(stdout);
    _exit(0);
  }
  int st_a = wait_child(a);
  pid_t b = fork();
  if (b == 0) {
    execl("/proc/self/exe", argv[0], "--child", (char *)NULL);
    perror("exec");
    _exit(127);
  }
  int st_b = wait_child(b);
  printf("parent: children exited %d %d\n", st_a, st_b);
  bad += run_dispatches(&h, q, 2);
  printf("parent: 2 dispatches after fork, result %s\n", bad ? "WRONG" : "ok");
  CHECK(hsa_queue_destroy(q));
  CHECK(hsa_shut_down());
  return bad || st_a || st_b;
}
