/* A packet that makes the GPU wait for an op's signal (a barrier's
 * dependency, as a HIP stream waiting on another's event; a barrier-value
 * packet, as HIP makes a kernel wait for an SDMA copy).
 *
 * While the op is in flight its signal is raised by one (sigtrack.c), so
 * the GPU would wait for the tracer as well as for the op: for a thread of
 * the tracer to see the hardware's decrement, read the times and take the
 * extra one away.  Nothing in the application waits on such a signal, so
 * that is a host thread's wake-up on the path from one queue to the other
 * (ROCR's async-events thread, armed per dependency, wakes twice and spins
 * each time), which stretches the timeline.
 *
 * So the packet's condition is handed to the GPU in the raised world: the
 * owner was raised from 1 to 2 (what HIP and most code do: one op, value
 * 1), so "the application's value is 0" reads "the value is below 2" until
 * the tracer releases the signal, and stays true after it (0).  A
 * barrier-AND or -OR with that one dependency becomes, in place, an AMD
 * barrier-value packet with (value & INT64_MAX) < 2, the same header bits
 * and completion signal; a barrier-value packet waiting for the value to
 * reach 0 (< 1, or == 0) gets that condition.  The GPU then goes on at the
 * hardware's decrement with no host in between, and the op is completed
 * later by its waiter (or whoever waits on it), which nothing waits for.
 *
 * Only then: one dependency, its owner alone in flight (no forward of the
 * same signal, whose decrement the tracer applies later), raised to 2.
 * Anything else raised keeps the runtime's async-events thread
 * (async_handlers.c); a quiet owner (not raised) needs nothing.
 * The difference with the untraced program: a value of 1 satisfies the new
 * condition once the signal is released, where 0 was needed; it is seen
 * only by a program that sets the signal back to 1 for reuse while a packet
 * still waits on its previous completion, which races without the tracer
 * too.  RTG_GPU_DEPS=0 keeps the packets as they are. */
#include "gpu_op.h"

#include <stdint.h>

enum { RAISED_ONE = 2 }; /* wait_below of an owner raised from 1 */

/* May the GPU wait for sig's owner by itself?  Only for an owner the
 * tracer raised from 1: a quiet owner's signal holds the application's own
 * value, so "below 2" there is a different condition.  HIP's blocking host
 * callbacks start their marker's signal at 2 and register a handler on it
 * (quiet); the marker that holds the stream waits for 0, which only HIP's
 * handler reaches, after the host function returns.  Read as "below 2",
 * the stream would run on at the hardware's decrement, before the host
 * function, and release what the function still uses. */
static bool gpu_can_wait(hsa_signal_t sig) {
  rtg_owner_ref o;
  return sig.handle && rtg_sigtrack_owner(sig.handle, &o) && o.alone && !o.quiet &&
         o.wait_below == RAISED_ONE;
}

static void wait_below_two(hsa_amd_barrier_value_packet_t *v) {
  v->value = RAISED_ONE;
  v->mask = INT64_MAX; /* as HIP's own: a negative value never satisfies it */
  v->cond = HSA_SIGNAL_CONDITION_LT;
}

/* A barrier-AND or -OR with one dependency, on sig: the same packet as a
 * barrier-value packet.  Same offsets for the completion signal; the header
 * keeps its barrier bit and fence scopes, with the vendor type. */
static void to_barrier_value(hsa_kernel_dispatch_packet_t *pkt, hsa_signal_t sig) {
  hsa_signal_t done = pkt->completion_signal;
  uint16_t keep = pkt->header & (uint16_t) ~((1u << HSA_PACKET_HEADER_WIDTH_TYPE) - 1);
  hsa_amd_barrier_value_packet_t v = {0};
  v.header.header = (uint16_t)(keep | (HSA_PACKET_TYPE_VENDOR_SPECIFIC << HSA_PACKET_HEADER_TYPE));
  v.header.AmdFormat = HSA_AMD_PACKET_TYPE_BARRIER_VALUE;
  v.signal = sig;
  wait_below_two(&v);
  v.completion_signal = done;
  _Static_assert(sizeof v == sizeof *pkt, "AQL packets are 64 bytes");
  __builtin_memcpy(pkt, &v, sizeof v);
}

/* Does the barrier-value packet wait for its signal to reach 0 from 1? */
static bool waits_for_zero(const hsa_amd_barrier_value_packet_t *v) {
  bool all = v->mask == -1 || v->mask == INT64_MAX;
  return all && ((v->cond == HSA_SIGNAL_CONDITION_LT && v->value == 1) ||
                 (v->cond == HSA_SIGNAL_CONDITION_EQ && v->value == 0));
}

bool rtg_gpu_deps_rewrite(hsa_kernel_dispatch_packet_t *pkt, rtg_op_kind kind) {
  if (!rtg_cfg.gpu_deps) return false;
  if (kind == RTG_OP_BARRIER_VALUE) {
    hsa_amd_barrier_value_packet_t *v = (hsa_amd_barrier_value_packet_t *)pkt;
    if (!waits_for_zero(v) || !gpu_can_wait(v->signal)) return false;
    wait_below_two(v);
    return true;
  }
  const hsa_barrier_and_packet_t *b = (const hsa_barrier_and_packet_t *)pkt;
  hsa_signal_t dep = {0};
  for (int i = 0; i < 5; i++) {
    if (!b->dep_signal[i].handle) continue;
    if (dep.handle) return false; /* several: each needs a host wake-up */
    dep = b->dep_signal[i];
  }
  if (!gpu_can_wait(dep)) return false;
  to_barrier_value(pkt, dep);
  return true;
}
