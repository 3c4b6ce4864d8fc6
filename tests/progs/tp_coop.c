/* tp_coop N ROUNDS: on every GPU, ROUNDS times over, creates N cooperative
 * queues (HSA_QUEUE_TYPE_COOPERATIVE; HIP makes one for each device), runs
 * one dispatch on each and destroys them; then hsa_shut_down.  ROCR hands out
 * one queue per GPU for every cooperative create (its GWS queue, counted),
 * and a destroy only releases a reference: the GPU agent deletes the queue
 * itself when the last reference goes, and again at hsa_shut_down if it is
 * still there.  Prints what each create returned and "shut down" at the
 * end. */
#include "tp_common.h"

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 2;
  int rounds = argc > 2 ? atoi(argv[2]) : 2;
  if (n < 1 || n > 8) n = 2;
  sg_system_t sys;
  sg_init(&sys);
  hsa_signal_t s;
  CHECK(hsa_signal_create(1, 0, NULL, &s));
  for (int round = 0; round < rounds; round++)
    for (int g = 0; g < sys.ngpus; g++) {
      hsa_queue_t *q[8];
      int same = 1;
      for (int i = 0; i < n; i++) {
        hsa_status_t st = hsa_queue_create(sys.gpu[g].agent, 64, HSA_QUEUE_TYPE_COOPERATIVE, NULL,
                                           NULL, UINT32_MAX, UINT32_MAX, &q[i]);
        if (st != HSA_STATUS_SUCCESS) {
          printf("gpu %d: no cooperative queue (status 0x%x)\n", g, st);
          return 1;
        }
        same &= q[i] == q[0];
        hsa_signal_store_screlease(s, 1);
        tp_dispatch_n(q[i], s, 1);
      }
      printf("round %d gpu %d: %d cooperative queues, %s\n", round, g, n,
             same ? "one queue" : "distinct queues");
      for (int i = 0; i < n; i++) CHECK(hsa_queue_destroy(q[i]));
    }
  CHECK(hsa_signal_destroy(s));
  CHECK(hsa_shut_down());
  printf("shut down\n");
  return 0;
}
