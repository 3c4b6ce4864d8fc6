/* sg_barrier_value: AMD barrier-value packets (hsa_amd_barrier_value_packet_t,
 * which HIP >= 5.3 uses to make a kernel wait for an SDMA copy) block their
 * queue until (signal & mask) cond value, for each condition:
 *   EQ with a mask: only the masked bits count;
 *   NE, LT, GTE;
 * and a kernel queued behind a barrier-value packet starts no earlier than
 * the host releases it. The host releases each wait in two steps, a value
 * that does not satisfy the condition, then one that does, each after it
 * has seen the packet still pending for 20 ms: an order that holds however
 * slowly the machine runs. */
#define _GNU_SOURCE
#include <hsa/hsa_ext_amd.h>
#include <string.h>
#include <unistd.h>

#include "common.h"

static int still_pending(hsa_signal_t s, uint64_t ns) {
  return hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_LT, 1, ns, HSA_WAIT_STATE_BLOCKED) == 1;
}

static void barrier_value(hsa_amd_barrier_value_packet_t *p, hsa_signal_t s, int64_t value,
                          int64_t mask, hsa_signal_condition32_t cond, hsa_signal_t done) {
  memset(p, 0, sizeof *p);
  p->header.header =
      (uint16_t)((HSA_PACKET_TYPE_VENDOR_SPECIFIC << HSA_PACKET_HEADER_TYPE) |
                 (1 << HSA_PACKET_HEADER_BARRIER) |
                 (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
                 (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE));
  p->header.AmdFormat = HSA_AMD_PACKET_TYPE_BARRIER_VALUE;
  p->signal = s;
  p->value = value;
  p->mask = mask;
  p->cond = cond;
  p->completion_signal = done;
}

static void one(hsa_queue_t *q, const char *what, hsa_signal_value_t start, int64_t value,
                int64_t mask, hsa_signal_condition32_t cond, hsa_signal_value_t wrong,
                hsa_signal_value_t right) {
  hsa_signal_t s, done;
  CHECK(hsa_signal_create(start, 0, NULL, &s));
  CHECK(hsa_signal_create(1, 0, NULL, &done));
  hsa_amd_barrier_value_packet_t p;
  barrier_value(&p, s, value, mask, cond, done);
  sg_submit(q, &p);
  int before = still_pending(done, 20000000); /* 20 ms, nothing changed yet */
  hsa_signal_store_screlease(s, wrong);
  int wrong_pending = still_pending(done, 20000000); /* 20 ms with the wrong value */
  hsa_signal_store_screlease(s, right);
  sg_wait(done);
  printf("%s: pending at start: %s, at %lld: %s, complete at %lld: yes\n", what,
         before ? "yes" : "no", (long long)wrong, wrong_pending ? "yes" : "no", (long long)right);
  CHECK(hsa_signal_destroy(s));
  CHECK(hsa_signal_destroy(done));
}

int main(void) {
  sg_system_t sys;
  sg_init(&sys);
  hsa_agent_t gpu = sys.gpu[0].agent;
  hsa_queue_t *q;
  CHECK(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &q));
  CHECK(hsa_amd_profiling_set_profiler_enabled(q, 1));

  /* (s & 0xff) == 0x10: 0x2005 differs in the low byte, 0x3010 does not */
  one(q, "eq mask 0xff 0x10", 1, 0x10, 0xff, HSA_SIGNAL_CONDITION_EQ, 0x2005, 0x3010);
  one(q, "ne 7", 7, 7, -1, HSA_SIGNAL_CONDITION_NE, 7, 8);
  one(q, "lt 1", 5, 1, -1, HSA_SIGNAL_CONDITION_LT, 1, 0);
  one(q, "gte 3", 0, 3, -1, HSA_SIGNAL_CONDITION_GTE, 2, 3);

  /* a kernel behind a barrier-value packet starts after the release */
  static char descriptor[4096] __attribute__((aligned(4096))); /* never run */
  hsa_signal_t gate, bdone, kdone;
  CHECK(hsa_signal_create(1, 0, NULL, &gate));
  CHECK(hsa_signal_create(1, 0, NULL, &bdone));
  CHECK(hsa_signal_create(1, 0, NULL, &kdone));
  hsa_amd_barrier_value_packet_t p;
  barrier_value(&p, gate, 0, -1, HSA_SIGNAL_CONDITION_EQ, bdone);
  sg_submit(q, &p);
  hsa_kernel_dispatch_packet_t d;
  sg_dispatch_packet(&d, (uint64_t)(uintptr_t)descriptor, NULL, 64, kdone);
  sg_submit(q, &d);
  usleep(30000);
  uint64_t released;
  CHECK(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &released));
  hsa_signal_store_screlease(gate, 0);
  sg_wait(kdone);
  hsa_amd_profiling_dispatch_time_t t;
  CHECK(hsa_amd_profiling_get_dispatch_time(gpu, kdone, &t));
  printf("kernel behind the barrier-value packet started after the release: %s\n",
         t.start >= released ? "yes" : "no");

  hsa_signal_t all[] = {gate, bdone, kdone};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) CHECK(hsa_signal_destroy(all[i]));
  CHECK(hsa_queue_destroy(q));
  CHECK(hsa_shut_down());
  return 0;
}
