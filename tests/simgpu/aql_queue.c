/* aql_queue.c - the packet processor of one AQL queue.
 *
 * Packets are taken in order from amd_queue_t.read_dispatch_id up to
 * write_dispatch_id, once their header is no longer INVALID. Processing one
 * packet serially is enough for AQL ordering rules (barrier bit, fences).
 *
 * Time: a kernel "runs" for its simulated duration (kernel_time.c) and its
 * completion signal gets start_ts/end_ts with end - start exactly that
 * duration. A packet that was already waiting when the previous one finished
 * starts at the previous end time, as on hardware that has work queued, so
 * back-to-back kernels tile the timeline without gaps; otherwise it starts
 * when the worker sees it. The worker sleeps until the end time before it
 * signals completion, so simulated time never runs ahead of the real clock. */
#define _GNU_SOURCE
#include <hsa/amd_hsa_queue.h>
#include <hsa/amd_hsa_signal.h>
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include "sim_core.h"

#define AQL_PACKET_SIZE 64
/* Vendor-specific (PM4 IB) and agent-dispatch packets keep their completion
 * signal at this byte offset, like the other packet types. */
#define COMPLETION_SIGNAL_OFFSET 56

static uint16_t *head_slot(sim_queue_t *q, uint64_t rd) {
  uint64_t slots = q->ring_size / AQL_PACKET_SIZE;
  return (uint16_t *)(q->ring + (rd % slots) * AQL_PACKET_SIZE);
}

static int64_t signal_value(hsa_signal_t s) {
  return __atomic_load_n(&((amd_signal_t *)(uintptr_t)s.handle)->value, __ATOMIC_ACQUIRE);
}

/* Barrier-AND: every non-null dependency is 0. Barrier-OR: any is 0, or
 * there is none. */
static int barrier_satisfied(const hsa_barrier_and_packet_t *b, int is_or) {
  int n = 0, zero = 0;
  for (int i = 0; i < 5; i++) {
    if (!b->dep_signal[i].handle) continue;
    n++;
    zero += signal_value(b->dep_signal[i]) == 0;
  }
  return is_or ? (n == 0 || zero > 0) : zero == n;
}

/* AMD vendor packet BARRIER_VALUE (hsa_amd_barrier_value_packet_t): blocks
 * the queue until (signal & mask) cond value. HIP >= 5.3 makes a kernel wait
 * for an SDMA copy with one; consuming it at once would let the kernel read
 * data the copy has not written yet. Other vendor packets (PM4 IBs) never
 * block. */
static int is_barrier_value(const void *slot) {
  return ((const hsa_amd_vendor_packet_header_t *)slot)->AmdFormat ==
         HSA_AMD_PACKET_TYPE_BARRIER_VALUE;
}

static int barrier_value_satisfied(const hsa_amd_barrier_value_packet_t *b) {
  if (!b->signal.handle) return 1;
  int64_t v = signal_value(b->signal) & b->mask;
  switch (b->cond) {
  case HSA_SIGNAL_CONDITION_EQ:
    return v == b->value;
  case HSA_SIGNAL_CONDITION_NE:
    return v != b->value;
  case HSA_SIGNAL_CONDITION_LT:
    return v < b->value;
  case HSA_SIGNAL_CONDITION_GTE:
    return v >= b->value;
  default: /* not a condition: a GPU would not wait either */
    return 1;
  }
}

/* Is there a packet at the head that can be processed now? Used by the
 * worker and, while it is parked, by the monitor. */
static int aql_ready(sim_queue_t *q) {
  if (q->suspended) return 0;
  uint64_t rd = *q->rptr;
  if (rd >= __atomic_load_n(q->wptr, __ATOMIC_ACQUIRE)) return 0;
  uint16_t *slot = head_slot(q, rd);
  uint16_t hdr = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
  uint8_t type = (hdr >> HSA_PACKET_HEADER_TYPE) & 0xff;
  if (type == HSA_PACKET_TYPE_INVALID) return 0;
  if (type == HSA_PACKET_TYPE_BARRIER_AND || type == HSA_PACKET_TYPE_BARRIER_OR)
    return barrier_satisfied((const hsa_barrier_and_packet_t *)slot,
                             type == HSA_PACKET_TYPE_BARRIER_OR);
  if (type == HSA_PACKET_TYPE_VENDOR_SPECIFIC && is_barrier_value(slot))
    return barrier_value_satisfied((const hsa_amd_barrier_value_packet_t *)slot);
  return 1;
}

/* What the command processor does at the end of a packet: timestamps, the
 * decrement, then the interrupt through the signal's event mailbox. */
static void complete(hsa_signal_t s, uint64_t t0, uint64_t t1) {
  if (!s.handle) return;
  amd_signal_t *sig = (amd_signal_t *)(uintptr_t)s.handle;
  sig->start_ts = t0;
  sig->end_ts = t1;
  __atomic_fetch_sub(&sig->value, 1, __ATOMIC_ACQ_REL);
  if (sig->event_mailbox_ptr) {
    __atomic_store_n((volatile uint32_t *)(uintptr_t)sig->event_mailbox_ptr, sig->event_id,
                     __ATOMIC_RELEASE);
    sim_event_fire(sig->event_id);
  }
}

static hsa_signal_t dispatch(sim_queue_t *q, hsa_kernel_dispatch_packet_t *d, uint64_t t0,
                             uint64_t *t1) {
  const char *name = sim_kernel_name(d->kernel_object);
  int emulated = sim_blit_emulate(d, name);
  uint64_t dur = sim_kernel_duration(d, name);
  SIM_LOG("q%u dispatch %s kobj=%#llx grid=%ux%ux%u wg=%ux%ux%u%s %llu ns\n", q->id,
          name ? name : "?", (unsigned long long)d->kernel_object, d->grid_size_x, d->grid_size_y,
          d->grid_size_z, d->workgroup_size_x, d->workgroup_size_y, d->workgroup_size_z,
          emulated ? " (emulated)" : "", (unsigned long long)dur);
  *t1 = t0 + dur;
  sim_sleep_until(*t1);
  return d->completion_signal;
}

static void process(sim_queue_t *q, uint64_t rd, uint64_t t0) {
  uint16_t *slot = head_slot(q, rd);
  uint8_t type = (__atomic_load_n(slot, __ATOMIC_ACQUIRE) >> HSA_PACKET_HEADER_TYPE) & 0xff;
  hsa_signal_t done = {0};
  uint64_t t1 = t0;
  switch (type) {
  case HSA_PACKET_TYPE_KERNEL_DISPATCH:
    done = dispatch(q, (hsa_kernel_dispatch_packet_t *)slot, t0, &t1);
    break;
  case HSA_PACKET_TYPE_BARRIER_AND:
  case HSA_PACKET_TYPE_BARRIER_OR:
    done = ((hsa_barrier_and_packet_t *)slot)->completion_signal;
    SIM_LOG("q%u barrier-%s done\n", q->id, type == HSA_PACKET_TYPE_BARRIER_AND ? "and" : "or");
    break;
  case HSA_PACKET_TYPE_VENDOR_SPECIFIC: /* barrier-value (waited for in aql_ready) or PM4 IB */
    if (is_barrier_value(slot)) SIM_LOG("q%u barrier-value done\n", q->id);
    done.handle = *(uint64_t *)((char *)slot + COMPLETION_SIGNAL_OFFSET);
    break;
  case HSA_PACKET_TYPE_AGENT_DISPATCH: /* no agent here services these */
    done.handle = *(uint64_t *)((char *)slot + COMPLETION_SIGNAL_OFFSET);
    break;
  default:
    SIM_LOG("q%u: unknown packet type %u consumed\n", q->id, type);
    break;
  }
  q->last_end = t1;
  /* Release the slot before moving the read index past it, and both before
   * the completion signal: as on hardware, where the packet processor has
   * consumed a packet long before it ends, a host that sees the signal
   * complete also sees the read index past the packet. `done` was copied
   * out of the slot, which the host may now reuse. */
  __atomic_store_n(slot, (uint16_t)(HSA_PACKET_TYPE_INVALID << HSA_PACKET_HEADER_TYPE),
                   __ATOMIC_RELEASE);
  __atomic_store_n(q->rptr, rd + 1, __ATOMIC_RELEASE);
  q->npackets++;
  /* Whether the next packet was already waiting when this one ended, looked
   * at before the completion: a packet the host writes on seeing it, or a
   * barrier it satisfies, cannot be counted as waiting (when the worker
   * loses its CPU after the packet, looking later would give it this end
   * as its start, before the host even wrote it) */
  q->next_waiting = aql_ready(q);
  complete(done, t0, t1);
}

void *sim_aql_worker(void *arg) {
  sim_queue_t *q = arg;
  char name[16];
  snprintf(name, sizeof name, "simgpu-aql%u", q->id);
  sim_thread_setup(name);
  while (!q->stop) {
    if (!aql_ready(q)) {
      q->next_waiting = 0;
      sim_park(q, aql_ready);
      continue;
    }
    uint64_t now = sim_now_ns();
    process(q, *q->rptr, q->next_waiting && q->last_end ? q->last_end : now);
  }
  return NULL;
}
