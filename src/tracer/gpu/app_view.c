/* What the application sees of a signal while the tracer owns it
 * (gpu_op.h): its conditions, the value it would read (one less while its
 * op is raised), and a load that completes an op the hardware finished.
 * The application's waits and loads (signal_hooks.c) and its async
 * handlers (async_handlers.c) decide on that value. */
#include "gpu_op.h"

bool rtg_signal_condition_met(hsa_signal_condition_t c, hsa_signal_value_t v,
                              hsa_signal_value_t cmp) {
  switch (c) {
  case HSA_SIGNAL_CONDITION_EQ:
    return v == cmp;
  case HSA_SIGNAL_CONDITION_NE:
    return v != cmp;
  case HSA_SIGNAL_CONDITION_LT:
    return v < cmp;
  case HSA_SIGNAL_CONDITION_GTE:
    return v >= cmp;
  }
  return true; /* unknown: leave it to the runtime */
}

/* The value the application would see, for v read from sig while o was
 * its owner: one less while that owner is still raised (not quiet, not
 * yet released).  The release subtracts and ends the ownership in one
 * section under the signal's lock, so an owner found again after the read
 * was not yet released when v was read. */
hsa_signal_value_t rtg_signal_app_value(hsa_signal_t sig, const rtg_owner_ref *o,
                                        hsa_signal_value_t v) {
  rtg_owner_ref now;
  if (o->quiet || !rtg_sigtrack_owner(sig.handle, &now) || now.op != o->op || now.claim != o->claim)
    return v;
  return v - 1;
}

/* The application's load of a signal shared by ops in flight, with no
 * owner left: the forwards the hardware finished are completed first, so
 * that a loop polling a count of completions sees each as it lands, not
 * at its waiter's next poll. */
static void complete_forwards(hsa_signal_t sig) {
  enum { MAX = 16 };
  rtg_owner_ref f[MAX];
  uint32_t n = rtg_sigtrack_forwards(sig.handle, f, MAX);
  for (uint32_t i = 0; i < n; i++)
    if ((f[i].claim & 3) == RTG_OP_PENDING && rtg_owner_hw_done(&f[i])) {
      rtg_op_mark_waited(&f[i]);
      rtg_op_try_complete(&f[i]);
    }
}

/* A load that sees the owner's decrement completes (or settles) it and loads
 * again; a load while the owner runs gets the application's value. */
hsa_signal_value_t rtg_signal_load(hsa_signal_value_t (*real)(hsa_signal_t), bool app,
                                   hsa_signal_t sig) {
  rtg_owner_ref o;
  if (!rtg_sigtrack_owner(sig.handle, &o)) {
    if (app) complete_forwards(sig);
    return real(sig);
  }
  if (rtg_owner_hw_done(&o)) {
    if (app) rtg_op_mark_waited(&o); /* (a poll that sees the op finished) */
    rtg_op_settle(sig.handle, &o);
    return real(sig);
  }
  hsa_signal_value_t v = real(sig);
  if (!rtg_owner_hw_done(&o)) return rtg_signal_app_value(sig, &o, v);
  if (app) rtg_op_mark_waited(&o);
  rtg_op_settle(sig.handle, &o); /* finished meanwhile */
  return real(sig);
}

hsa_signal_value_t rtg_signal_app_load(hsa_signal_t sig) {
  return rtg_signal_load(rtg_real.hsa_signal_load_scacquire, false, sig);
}
