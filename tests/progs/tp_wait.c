/* tp_wait: one cell of the stretch matrix (scripts/bench-stretch.sh) for
 * HSA: threads that submit 20 us kernels and wait for each in one way.
 *   tp_wait WAIT LAYOUT SIGNAL N
 * WAIT, how each thread learns that its kernel completed:
 *   scacquire-blocked, scacquire-active, relaxed-blocked, relaxed-active
 *            hsa_signal_wait_scacquire / _relaxed (LT 1) in that wait state
 *   poll     a loop of hsa_signal_load_scacquire until the value is below 1
 *   any      hsa_amd_signal_wait_any on the signal and one nothing signals
 *   handler  an async handler registered on the signal before the submit,
 *            which wakes the thread (a semaphore)
 *   b2b      no wait per kernel: all submitted back to back, then waited for
 * LAYOUT: 1t2q (one thread, kernels alternating between two queues),
 *   2t (two threads, each with its own queue), 4t1q (four threads sharing
 *   one queue).
 * SIGNAL: fresh (each kernel its own completion signal), reuse (one signal
 *   per thread, set back with hsa_signal_store_relaxed(1) before each
 *   submit; for b2b one signal per thread made with the thread's count of
 *   kernels, each kernel taking one away).
 * N kernels per thread.  Prints "elapsed_ns T": from the moment all threads
 * start to the last one's last completion seen; "tids A B ..", the threads'
 * ids; "handler_tid H", the thread that ran the last async handler; and,
 * from the times the simulated GPU writes into every completion signal,
 * "seen_ns MEDIAN P90": how long after a kernel's end its thread's wait
 * returned, and "start_ns MEDIAN P90": how long after its submission it
 * began (not for b2b).
 * TP_GAP_NS=G: each thread spins G ns after each wait before its next
 * submit, as host work between kernels (or a tracer's) would take. */
#define _GNU_SOURCE
#include <hsa/amd_hsa_signal.h>
#include <pthread.h>
#include <semaphore.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "tp_common.h"

enum wait_kind { W_SCACQ_B, W_SCACQ_A, W_RELAX_B, W_RELAX_A, W_POLL, W_ANY, W_HANDLER, W_B2B };
static const char *const wait_names[] = {"scacquire-blocked",
                                         "scacquire-active",
                                         "relaxed-blocked",
                                         "relaxed-active",
                                         "poll",
                                         "any",
                                         "handler",
                                         "b2b"};
enum { MAX_THREADS = 4 };

static enum wait_kind kind;
static bool reuse;
static int n_ops;
static uint64_t gap_ns;   /* TP_GAP_NS */
static hsa_signal_t idle; /* never signalled: wait_any's other signal */
static pthread_barrier_t start;
static _Atomic long handler_tid;

typedef struct worker {
  hsa_queue_t *q[2]; /* alternated (1t2q), else q[0] */
  hsa_signal_t *sig; /* n_ops fresh signals, or one reused */
  uint64_t *seen;    /* per kernel: its wait's return - its end */
  uint64_t *began;   /* per kernel: its start - its submission */
  sem_t done;        /* posted by the async handler */
  long tid;
  pthread_t thread;
} worker;

static uint64_t now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_BOOTTIME, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static bool on_complete(hsa_signal_value_t value, void *arg) {
  (void)value;
  handler_tid = syscall(SYS_gettid);
  sem_post(&((worker *)arg)->done);
  return false;
}

static void wait_for(worker *w, hsa_signal_t s) {
  const hsa_signal_condition_t lt = HSA_SIGNAL_CONDITION_LT;
  switch (kind) {
  case W_SCACQ_B:
  case W_SCACQ_A:
    while (hsa_signal_wait_scacquire(s, lt, 1, UINT64_MAX,
                                     kind == W_SCACQ_B ? HSA_WAIT_STATE_BLOCKED
                                                       : HSA_WAIT_STATE_ACTIVE) >= 1) {
    }
    break;
  case W_RELAX_B:
  case W_RELAX_A:
    while (hsa_signal_wait_relaxed(s, lt, 1, UINT64_MAX,
                                   kind == W_RELAX_B ? HSA_WAIT_STATE_BLOCKED
                                                     : HSA_WAIT_STATE_ACTIVE) >= 1) {
    }
    break;
  case W_POLL:
    while (hsa_signal_load_scacquire(s) >= 1) {
    }
    break;
  case W_ANY: {
    hsa_signal_t sig[2] = {idle, s};
    hsa_signal_condition_t c[2] = {HSA_SIGNAL_CONDITION_EQ, lt};
    hsa_signal_value_t v[2] = {0, 1};
    while (hsa_amd_signal_wait_any(2, sig, c, v, UINT64_MAX, HSA_WAIT_STATE_BLOCKED, NULL) != 1) {
    }
    break;
  }
  case W_HANDLER:
    while (sem_wait(&w->done) != 0) {
    }
    break;
  case W_B2B:
    break;
  }
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* "name MEDIAN P90" of the threads' n values each in v[t] */
static void print_spread(const char *name, uint64_t **v, int threads) {
  size_t n = (size_t)threads * (size_t)n_ops;
  uint64_t *all = malloc(n * sizeof *all);
  if (!all) return;
  for (int t = 0; t < threads; t++) memcpy(all + (size_t)t * n_ops, v[t], n_ops * sizeof *all);
  qsort(all, n, sizeof *all, cmp_u64);
  printf("%s %llu %llu\n", name, (unsigned long long)all[n / 2],
         (unsigned long long)all[n * 9 / 10]);
  free(all);
}

static void *run(void *arg) {
  worker *w = arg;
  w->tid = syscall(SYS_gettid);
  pthread_barrier_wait(&start);
  for (int i = 0; i < n_ops; i++) {
    hsa_signal_t s = w->sig[reuse ? 0 : i];
    if (reuse && kind != W_B2B) hsa_signal_store_relaxed(s, 1);
    if (kind == W_HANDLER)
      CHECK(hsa_amd_signal_async_handler(s, HSA_SIGNAL_CONDITION_LT, 1, on_complete, w));
    hsa_kernel_dispatch_packet_t d;
    sg_dispatch_packet(&d, (uint64_t)(uintptr_t)tp_descriptor, NULL, 64, s);
    uint64_t submitted = now();
    sg_submit(w->q[i % 2], &d);
    wait_for(w, s);
    if (kind == W_B2B) continue;
    uint64_t seen = now();
    while (gap_ns && now() - seen < gap_ns) {
    }
    const amd_signal_t *as = (const amd_signal_t *)(uintptr_t)s.handle;
    w->seen[i] = seen - (uint64_t)as->end_ts;
    w->began[i] = (uint64_t)as->start_ts - submitted;
  }
  if (kind == W_B2B)
    for (int i = 0; i < (reuse ? 1 : n_ops); i++) sg_wait(w->sig[i]);
  return NULL;
}

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: tp_wait WAIT 1t2q|2t|4t1q fresh|reuse N\n");
    return 2;
  }
  int k = 0;
  while (k <= W_B2B && strcmp(argv[1], wait_names[k])) k++;
  kind = (enum wait_kind)k;
  int threads = !strcmp(argv[2], "2t") ? 2 : !strcmp(argv[2], "4t1q") ? 4 : 1;
  bool shared = threads == 4, two_queues = threads == 1;
  reuse = !strcmp(argv[3], "reuse");
  n_ops = atoi(argv[4]);
  const char *gap = getenv("TP_GAP_NS");
  gap_ns = gap ? strtoull(gap, NULL, 10) : 0;
  if (k > W_B2B || (threads == 1 && strcmp(argv[2], "1t2q")) ||
      (!reuse && strcmp(argv[3], "fresh")) || n_ops < 1 || n_ops > 100000) {
    fprintf(stderr, "tp_wait: bad arguments\n");
    return 2;
  }
  sg_system_t sys;
  sg_init(&sys);
  CHECK(hsa_signal_create(1, 0, NULL, &idle));
  worker w[MAX_THREADS];
  hsa_queue_t *q[MAX_THREADS];
  int nq = shared ? 1 : two_queues ? 2 : threads;
  for (int i = 0; i < nq; i++)
    CHECK(hsa_queue_create(sys.gpu[0].agent, 1024, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX,
                           UINT32_MAX, &q[i]));
  for (int t = 0; t < threads; t++) {
    w[t].q[0] = q[shared ? 0 : t];
    w[t].q[1] = q[two_queues ? 1 : shared ? 0 : t];
    int ns = reuse ? 1 : n_ops;
    w[t].sig = calloc((size_t)ns, sizeof *w[t].sig);
    w[t].seen = calloc((size_t)n_ops, sizeof *w[t].seen);
    w[t].began = calloc((size_t)n_ops, sizeof *w[t].began);
    if (!w[t].sig || !w[t].seen || !w[t].began) return 1;
    for (int i = 0; i < ns; i++)
      CHECK(hsa_signal_create(reuse && kind == W_B2B ? n_ops : 1, 0, NULL, &w[t].sig[i]));
    sem_init(&w[t].done, 0, 0);
  }
  pthread_barrier_init(&start, NULL, (unsigned)threads + 1);
  for (int t = 0; t < threads; t++) pthread_create(&w[t].thread, NULL, run, &w[t]);
  pthread_barrier_wait(&start);
  uint64_t t0 = now();
  for (int t = 0; t < threads; t++) pthread_join(w[t].thread, NULL);
  uint64_t t1 = now();
  printf("elapsed_ns %llu\ntids", (unsigned long long)(t1 - t0));
  for (int t = 0; t < threads; t++) printf(" %ld", w[t].tid);
  printf("\nhandler_tid %ld\n", (long)handler_tid);
  if (kind != W_B2B) {
    uint64_t *seen[MAX_THREADS], *began[MAX_THREADS];
    for (int t = 0; t < threads; t++) seen[t] = w[t].seen, began[t] = w[t].began;
    print_spread("seen_ns", seen, threads);
    print_spread("start_ns", began, threads);
  }
  for (int t = 0; t < threads; t++) {
    for (int i = 0; i < (reuse ? 1 : n_ops); i++) hsa_signal_destroy(w[t].sig[i]);
    free(w[t].sig);
    free(w[t].seen);
    free(w[t].began);
  }
  hsa_signal_destroy(idle);
  for (int i = 0; i < nq; i++) hsa_queue_destroy(q[i]);
  return 0;
}
