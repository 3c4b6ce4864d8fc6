/* The graph exec numbers of hipGraphLaunch (hip_graph.c): execs are
 * numbered 1, 2, ... in the order of their first launch, a later launch
 * of one finds its number, the launch makes the number the thread's graph
 * and restarts its op count, threads launching the same new exec at once
 * agree on one number, and a full table leaves launches untagged. */
#include "check.h"
#include "hip/hip_internal.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

__thread rtg_thread_state rtg_tls; /* (the core's, for the calls' ts) */

/* The exec's number (0: untagged); *restarted: the launch restarted the
 * thread's op count where it tagged it (checked by the caller: CHECK is
 * the main thread's). */
static uint32_t launch_on(uintptr_t exec, bool *restarted) {
  rtg_hip_call c = {.ts = &rtg_tls};
  rtg_tls.graph = 0;
  rtg_tls.graph_ops = 7;
  rtg_hip_graph_begin(&c, &exec);
  *restarted = !c.graph || rtg_tls.graph_ops == 0;
  return c.graph ? rtg_tls.graph : 0;
}

static uint32_t launch(uintptr_t exec) {
  bool restarted;
  uint32_t id = launch_on(exec, &restarted);
  CHECK(restarted);
  return id;
}

enum { THREADS = 8, SHARED = 0x5000 };
static uint32_t seen[THREADS];
static bool seen_restarted[THREADS];
static void *racer(void *arg) {
  seen[(uintptr_t)arg] = launch_on(SHARED, &seen_restarted[(uintptr_t)arg]);
  return NULL;
}

int main(void) {
  CHECK_U64(launch(0x1000), 1);
  CHECK_U64(launch(0x2000), 2);
  CHECK_U64(launch(0x1000), 1);
  CHECK_U64(launch(0), 0); /* no exec: untagged */
  pthread_t t[THREADS];
  for (uintptr_t i = 0; i < THREADS; i++) pthread_create(&t[i], NULL, racer, (void *)i);
  for (int i = 0; i < THREADS; i++) pthread_join(t[i], NULL);
  for (int i = 0; i < THREADS; i++) {
    CHECK_U64(seen[i], 3);
    CHECK(seen_restarted[i]);
  }
  uint32_t last = 0, untagged = 0;
  for (uintptr_t e = 1; e <= 3000; e++) {
    uint32_t id = launch(0x100000 + e * 64);
    if (id)
      last = id;
    else
      untagged++;
  }
  CHECK_U64(last, 2048); /* the table's limit */
  CHECK_U64(untagged, 3000 - (2048 - 3));
  CHECK_U64(launch(0x2000), 2); /* still found */
  return check_done("test_hip_graph");
}
