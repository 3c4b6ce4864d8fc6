/* The packet transforms of gpu/gpu_deps.c: a barrier or barrier-value
 * packet that waits on a signal the tracer raised is made to wait on the
 * GPU alone, in place, only when that is the same condition; any other is
 * left byte for byte as it was. */
#include "check.h"
#include "core/config.h"
#include "fake_hsa.h"

#include <string.h>

static hsa_kernel_dispatch_packet_t barrier(uint16_t type, hsa_signal_t dep0, hsa_signal_t dep1,
                                            hsa_signal_t done) {
  hsa_kernel_dispatch_packet_t pkt;
  memset(&pkt, 0, sizeof pkt);
  hsa_barrier_and_packet_t *b = (hsa_barrier_and_packet_t *)&pkt;
  b->header = (uint16_t)(type << HSA_PACKET_HEADER_TYPE | 1 << HSA_PACKET_HEADER_BARRIER |
                         HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE |
                         HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE);
  b->dep_signal[0] = dep0;
  b->dep_signal[3] = dep1;
  b->completion_signal = done;
  return pkt;
}

static hsa_kernel_dispatch_packet_t barrier_value(hsa_signal_t sig, int64_t value, int64_t mask,
                                                  hsa_signal_condition32_t cond) {
  hsa_kernel_dispatch_packet_t pkt;
  memset(&pkt, 0, sizeof pkt);
  hsa_amd_barrier_value_packet_t *v = (hsa_amd_barrier_value_packet_t *)&pkt;
  v->header.header = (uint16_t)(HSA_PACKET_TYPE_VENDOR_SPECIFIC << HSA_PACKET_HEADER_TYPE);
  v->header.AmdFormat = HSA_AMD_PACKET_TYPE_BARRIER_VALUE;
  v->signal = sig, v->value = value, v->mask = mask, v->cond = cond;
  return pkt;
}

/* pkt is now "wait until sig's value & INT64_MAX is below 2" */
static void check_below_two(const hsa_kernel_dispatch_packet_t *pkt, hsa_signal_t sig,
                            uint16_t header_kept, hsa_signal_t done) {
  const hsa_amd_barrier_value_packet_t *v = (const hsa_amd_barrier_value_packet_t *)pkt;
  CHECK_U64(v->header.header >> HSA_PACKET_HEADER_TYPE & ((1u << HSA_PACKET_HEADER_WIDTH_TYPE) - 1),
            HSA_PACKET_TYPE_VENDOR_SPECIFIC);
  CHECK_U64(v->header.header >> HSA_PACKET_HEADER_WIDTH_TYPE,
            header_kept >> HSA_PACKET_HEADER_WIDTH_TYPE);
  CHECK_U64(v->header.AmdFormat, HSA_AMD_PACKET_TYPE_BARRIER_VALUE);
  CHECK_U64(v->signal.handle, sig.handle);
  CHECK_U64(v->value, 2);
  CHECK_U64(v->mask, INT64_MAX);
  CHECK_U64(v->cond, HSA_SIGNAL_CONDITION_LT);
  CHECK_U64(v->completion_signal.handle, done.handle);
}

/* rewritten as expected, or left as it was */
static bool unchanged(hsa_kernel_dispatch_packet_t pkt, rtg_op_kind kind) {
  hsa_kernel_dispatch_packet_t before = pkt;
  bool r = rtg_gpu_deps_rewrite(&pkt, kind);
  return !r && !memcmp(&before, &pkt, sizeof pkt);
}

int main(void) {
  fake_hsa_install();
  rtg_sigtrack_init();
  rtg_cfg.gpu_deps = true;
  hsa_signal_t none = {0}, done = fake_signal_new(1);

  /* an op the tracer raised from 1 to 2, alone in flight */
  hsa_signal_t sig = fake_signal_new(1);
  rtg_op *owner = rtg_op_alloc();
  CHECK(rtg_op_bind_signal(owner, sig));
  CHECK_U64(fake_value(sig), 2);

  /* a barrier-AND and a barrier-OR with that one dependency */
  uint16_t types[] = {HSA_PACKET_TYPE_BARRIER_AND, HSA_PACKET_TYPE_BARRIER_OR};
  rtg_op_kind kinds[] = {RTG_OP_BARRIER_AND, RTG_OP_BARRIER_OR};
  for (int i = 0; i < 2; i++) {
    hsa_kernel_dispatch_packet_t pkt = barrier(types[i], sig, none, done);
    uint16_t header = pkt.header;
    CHECK(rtg_gpu_deps_rewrite(&pkt, kinds[i]));
    check_below_two(&pkt, sig, header, done);
    /* the dependency in another slot */
    pkt = barrier(types[i], none, sig, done);
    CHECK(rtg_gpu_deps_rewrite(&pkt, kinds[i]));
    check_below_two(&pkt, sig, header, done);
  }
  /* a barrier-value packet waiting for 0, as "< 1" or "== 0", any mask
   * that covers the value */
  hsa_kernel_dispatch_packet_t pkt = barrier_value(sig, 1, -1, HSA_SIGNAL_CONDITION_LT);
  CHECK(rtg_gpu_deps_rewrite(&pkt, RTG_OP_BARRIER_VALUE));
  check_below_two(&pkt, sig, pkt.header, none);
  pkt = barrier_value(sig, 0, INT64_MAX, HSA_SIGNAL_CONDITION_EQ);
  CHECK(rtg_gpu_deps_rewrite(&pkt, RTG_OP_BARRIER_VALUE));
  check_below_two(&pkt, sig, pkt.header, none);

  /* anything else stays as it is */
  hsa_signal_t other = fake_signal_new(1); /* not raised by the tracer */
  CHECK(unchanged(barrier(HSA_PACKET_TYPE_BARRIER_AND, sig, other, done), RTG_OP_BARRIER_AND));
  CHECK(unchanged(barrier(HSA_PACKET_TYPE_BARRIER_AND, other, none, done), RTG_OP_BARRIER_AND));
  CHECK(unchanged(barrier(HSA_PACKET_TYPE_BARRIER_AND, none, none, done), RTG_OP_BARRIER_AND));
  CHECK(unchanged(barrier_value(sig, 1, 0xff, HSA_SIGNAL_CONDITION_LT), RTG_OP_BARRIER_VALUE));
  CHECK(unchanged(barrier_value(sig, 2, -1, HSA_SIGNAL_CONDITION_LT), RTG_OP_BARRIER_VALUE));
  CHECK(unchanged(barrier_value(sig, 0, -1, HSA_SIGNAL_CONDITION_NE), RTG_OP_BARRIER_VALUE));
  CHECK(unchanged(barrier_value(sig, 1, -1, HSA_SIGNAL_CONDITION_GTE), RTG_OP_BARRIER_VALUE));
  CHECK(unchanged(barrier_value(other, 1, -1, HSA_SIGNAL_CONDITION_LT), RTG_OP_BARRIER_VALUE));
  /* RTG_GPU_DEPS=0 */
  rtg_cfg.gpu_deps = false;
  CHECK(unchanged(barrier(HSA_PACKET_TYPE_BARRIER_AND, sig, none, done), RTG_OP_BARRIER_AND));
  rtg_cfg.gpu_deps = true;

  /* an owner not alone (a forward of its signal in flight) */
  rtg_op *fwd = rtg_op_alloc();
  CHECK(rtg_op_bind_signal(fwd, sig) && fwd->forward);
  CHECK(unchanged(barrier(HSA_PACKET_TYPE_BARRIER_AND, sig, none, done), RTG_OP_BARRIER_AND));
  rtg_op_unbind_signal(fwd);
  CHECK(!unchanged(barrier(HSA_PACKET_TYPE_BARRIER_AND, sig, none, done), RTG_OP_BARRIER_AND));
  rtg_op_unbind_signal(owner);
  CHECK_U64(fake_value(sig), 1);

  /* an owner raised from another value than 1 (a counter), or quiet */
  hsa_signal_t counter = fake_signal_new(3);
  rtg_op *c = rtg_op_alloc();
  CHECK(rtg_op_bind_signal(c, counter));
  CHECK(unchanged(barrier(HSA_PACKET_TYPE_BARRIER_AND, counter, none, done), RTG_OP_BARRIER_AND));
  hsa_signal_t handled = fake_signal_new(1);
  rtg_op *q = rtg_op_alloc();
  q->quiet = true;
  CHECK(rtg_op_bind_signal(q, handled));
  CHECK(unchanged(barrier(HSA_PACKET_TYPE_BARRIER_AND, handled, none, done), RTG_OP_BARRIER_AND));
  CHECK(unchanged(barrier_value(handled, 1, -1, HSA_SIGNAL_CONDITION_LT), RTG_OP_BARRIER_VALUE));
  return check_done("test_gpu_deps");
}
