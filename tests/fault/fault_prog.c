/* fault_prog: HSA programs that misbehave, for the tracer's fault tests
 * (tests/e2e/180-189) on the simulated GPU.  Dispatches use a never-run
 * descriptor (simgpu only times them); a dispatch with grid size SLOW_GRID
 * takes 30 s on simgpu (through its dispatch hook), the rest 1 us.
 *
 *   fault_prog storm THREADS N      THREADS threads, each with its own queue,
 *                                   N dispatches each, all waited for
 *   fault_prog inflight N M         N dispatches waited for, then M slow ones
 *                                   submitted, then exit(0) at once
 *   fault_prog crash N M HOW        the same, then die at once: segv, abort,
 *                                   or _exit(3) (which runs no atexit handler)
 *   fault_prog churn WAVES T C D    WAVES waves of T short-lived threads, each
 *                                   doing C hsa_signal_create/destroy pairs and
 *                                   D dispatches on a shared queue, then
 *                                   exiting, while one long-lived thread
 *                                   dispatches until the last wave is done
 *   fault_prog fork N               N dispatches, then fork: child A exits
 *                                   without exec, child B execs "fault_prog
 *                                   storm 1 N"; the parent does N more
 *   fault_prog burst ROUNDS IDLE_MS ROUNDS times, on one queue: wait IDLE_MS
 *                                   (the GPU goes idle), publish a whole
 *                                   queue of dispatches with one doorbell
 *                                   ring, submit one more at once, wait
 * Every mode prints one deterministic line on stdout before its end. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"
#include "simgpu.h"

enum { SLOW_GRID = 128, MAX_THREADS = 64 };

static char descriptor[4096] __attribute__((aligned(4096)));
static sg_system_t sys;

static int64_t hook(const hsa_kernel_dispatch_packet_t *pkt, const char *name, void *user) {
  (void)name, (void)user;
  return pkt->grid_size_x == SLOW_GRID ? 30000000000ll : 1000;
}

static void init(void) {
  sg_init(&sys);
  void (*set)(simgpu_dispatch_hook_t, void *) =
      (void (*)(simgpu_dispatch_hook_t, void *))dlsym(RTLD_DEFAULT, "simgpuSetDispatchHook");
  if (set) set(hook, NULL);
}

static hsa_queue_t *new_queue(void) {
  hsa_queue_t *q;
  CHECK(hsa_queue_create(sys.gpu[0].agent, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX,
                         UINT32_MAX, &q));
  return q;
}

/* n dispatches of grid size `grid` completing sig (set to n here) */
static void submit(hsa_queue_t *q, hsa_signal_t sig, int n, uint32_t grid) {
  hsa_signal_store_relaxed(sig, n);
  for (int i = 0; i < n; i++) {
    hsa_kernel_dispatch_packet_t d;
    sg_dispatch_packet(&d, (uint64_t)(uintptr_t)descriptor, NULL, grid, sig);
    sg_submit(q, &d);
  }
}

static void run_waited(hsa_queue_t *q, int n) {
  hsa_signal_t s;
  CHECK(hsa_signal_create(0, 0, NULL, &s));
  /* one at a time: each completion is recorded before the next starts */
  for (int i = 0; i < n; i++) {
    submit(q, s, 1, 64);
    sg_wait(s);
  }
  CHECK(hsa_signal_destroy(s));
}

/* ------------------------------------------------------------------ storm */
static int storm_n;

static void *storm_worker(void *arg) {
  (void)arg;
  hsa_queue_t *q = new_queue();
  hsa_signal_t s;
  CHECK(hsa_signal_create(0, 0, NULL, &s));
  for (int done = 0; done < storm_n;) { /* batches of up to 1000 */
    int k = storm_n - done < 1000 ? storm_n - done : 1000;
    submit(q, s, k, 64);
    if (hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 0, 60000000000ull,
                                  HSA_WAIT_STATE_BLOCKED) != 0) {
      fprintf(stderr, "storm: a batch did not complete\n");
      exit(1);
    }
    done += k;
  }
  CHECK(hsa_signal_destroy(s));
  CHECK(hsa_queue_destroy(q));
  return NULL;
}

static int storm(int threads, int n) {
  storm_n = n;
  pthread_t th[MAX_THREADS];
  for (int i = 0; i < threads; i++) pthread_create(&th[i], NULL, storm_worker, NULL);
  for (int i = 0; i < threads; i++) pthread_join(th[i], NULL);
  printf("storm: %d threads x %d dispatches done\n", threads, n);
  return 0;
}

/* ------------------------------------------------------- inflight, crash */
static void leave_in_flight(int n, int m) {
  hsa_queue_t *q = new_queue();
  run_waited(q, n);
  hsa_signal_t s;
  CHECK(hsa_signal_create(0, 0, NULL, &s));
  submit(q, s, m, SLOW_GRID);
  printf("%d done, %d in flight\n", n, m);
  fflush(stdout);
}

static int crash(int n, int m, const char *how) {
  leave_in_flight(n, m);
  if (!strcmp(how, "abort")) abort();
  if (!strcmp(how, "_exit")) _exit(3);
  volatile int *p = NULL;
  return *p;
}

/* ------------------------------------------------------------------ churn */
static hsa_queue_t *shared_q;
static int churn_c, churn_d;
static atomic_int churn_stop;
static long churn_long_dispatches;

static void *churn_short(void *arg) {
  (void)arg;
  for (int i = 0; i < churn_c; i++) {
    hsa_signal_t t;
    CHECK(hsa_signal_create(1, 0, NULL, &t));
    CHECK(hsa_signal_destroy(t));
  }
  hsa_signal_t s;
  CHECK(hsa_signal_create(0, 0, NULL, &s));
  submit(shared_q, s, churn_d, 64);
  sg_wait(s);
  CHECK(hsa_signal_destroy(s));
  return NULL;
}

static void *churn_long(void *arg) {
  (void)arg;
  hsa_queue_t *q = new_queue();
  hsa_signal_t s;
  CHECK(hsa_signal_create(0, 0, NULL, &s));
  while (!atomic_load(&churn_stop)) {
    submit(q, s, 1, 64);
    sg_wait(s);
    churn_long_dispatches++;
  }
  CHECK(hsa_signal_destroy(s));
  CHECK(hsa_queue_destroy(q));
  return NULL;
}

static int churn(int waves, int threads, int c, int d) {
  churn_c = c, churn_d = d;
  shared_q = new_queue();
  pthread_t lt, th[MAX_THREADS];
  pthread_create(&lt, NULL, churn_long, NULL);
  for (int w = 0; w < waves; w++) {
    for (int i = 0; i < threads; i++) pthread_create(&th[i], NULL, churn_short, NULL);
    for (int i = 0; i < threads; i++) pthread_join(th[i], NULL);
  }
  atomic_store(&churn_stop, 1);
  pthread_join(lt, NULL);
  /* the long thread's count varies: on stderr, for the test to read */
  fprintf(stderr, "churn: long thread dispatches %ld\n", churn_long_dispatches);
  printf("churn: %d waves x %d threads x (%d signal pairs, %d dispatches) done\n", waves, threads,
         c, d);
  return 0;
}

/* ------------------------------------------------------------------ burst */
/* A producer that fills the queue before ringing: the runtime then sees
 * every slot valid at once (ROCR >= 7.2 hands such a batch to the intercept
 * callback in one call), on a GPU that has gone idle, and the next packet
 * comes before the GPU has looked at the queue again. */
static int burst(int rounds, int idle_ms) {
  hsa_queue_t *q = new_queue();
  uint32_t n = q->size;
  hsa_signal_t s;
  CHECK(hsa_signal_create(0, 0, NULL, &s));
  for (int r = 0; r < rounds; r++) {
    usleep((useconds_t)idle_ms * 1000);
    hsa_signal_store_relaxed(s, (hsa_signal_value_t)n + 1);
    uint64_t first = hsa_queue_add_write_index_relaxed(q, n);
    while (first + n - hsa_queue_load_read_index_scacquire(q) > q->size) usleep(10);
    hsa_kernel_dispatch_packet_t d;
    sg_dispatch_packet(&d, (uint64_t)(uintptr_t)descriptor, NULL, 64, s);
    for (uint32_t i = 0; i < n; i++) sg_write_packet(q, first + i, &d);
    hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)(first + n - 1));
    sg_submit(q, &d);
    sg_wait(s);
  }
  CHECK(hsa_signal_destroy(s));
  CHECK(hsa_queue_destroy(q));
  printf("burst: %d rounds x (%u + 1) dispatches done\n", rounds, n);
  return 0;
}

/* ------------------------------------------------------------------- fork */
static int do_fork(const char *self, int n) {
  hsa_queue_t *q = new_queue();
  run_waited(q, n);
  fflush(stdout);
  pid_t a = fork();
  if (a == 0) {
    /* HSA is not usable in a forked child: host work only */
    volatile unsigned long x = 0;
    for (int i = 0; i < 1000000; i++) x += (unsigned long)i;
    (void)x; /* never read: gcc >= 15 warns */
    exit(0);
  }
  pid_t b = fork();
  if (b == 0) {
    char nb[16];
    snprintf(nb, sizeof nb, "%d", n);
    execl(self, self, "storm", "1", nb, (char *)NULL);
    _exit(127);
  }
  int sa = -1, sb = -1;
  waitpid(a, &sa, 0);
  waitpid(b, &sb, 0);
  run_waited(q, n);
  printf("fork: child A exit %d, child B exit %d, parent dispatched %d\n", WEXITSTATUS(sa),
         WEXITSTATUS(sb), 2 * n);
  return 0;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  int a = argc > 2 ? atoi(argv[2]) : 0, b = argc > 3 ? atoi(argv[3]) : 0;
  int c = argc > 4 ? atoi(argv[4]) : 0, d = argc > 5 ? atoi(argv[5]) : 0;
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (!strcmp(mode, "storm") && a >= 1 && a <= MAX_THREADS && b >= 1) {
    init();
    return storm(a, b);
  }
  if (!strcmp(mode, "inflight") && argc == 4) {
    init();
    leave_in_flight(a, b);
    exit(0);
  }
  if (!strcmp(mode, "crash") && argc == 5) {
    init();
    return crash(a, b, argv[4]);
  }
  if (!strcmp(mode, "churn") && argc == 6 && b <= MAX_THREADS) {
    init();
    return churn(a, b, c, d);
  }
  if (!strcmp(mode, "burst") && argc == 4 && a >= 1 && b >= 0) {
    init();
    return burst(a, b);
  }
  if (!strcmp(mode, "fork") && argc == 3) {
    init();
    return do_fork(argv[0], a);
  }
  fprintf(stderr,
          "usage: fault_prog storm|inflight|crash|churn|fork|burst ARGS (see the source)\n");
  return 2;
}
