/* Rules of rtg-convert --analyze: patterns that cost GPU time, each with
 * its count, the time it costs and its worst instances.
 *
 * Of a process (its calls, on the threads that made them):
 *   sync_after_launch  a synchronisation follows most kernel launches: the
 *                      host waits for each kernel before it launches the
 *                      next (cost: the time in those synchronisations);
 *   sync_copy          synchronous hipMemcpy/hipMemset calls between the
 *                      first and the last kernel launch (cost: their time);
 *   alloc_in_loop      hipMalloc/hipFree (and kin) between the first and
 *                      the last kernel launch: they synchronise the device
 *                      (cost: their time);
 *   pageable_copy      async copies from or to pageable host memory
 *                      (memory.h; cost: the calls' time).
 * Of a GPU (its ops):
 *   launch_bound       kernels shorter than the call that launched them
 *                      (cost: the launch calls' time past the kernels'; a
 *                      copy or fill that runs as a kernel is no launch);
 *   queue_delay        kernels that waited in their queue over 10 x their
 *                      queue's median and over 50 us (cost: that wait);
 *   low_utilization    windows of the span after startup (in 50 equal
 *                      chunks) where kernels kept the GPU under 20 % busy
 *                      (cost: the idle time in them);
 *   startup            the process's start to the GPU's first op is over
 *                      20 % of the span (cost: that time).
 * A rule fires when its pattern is more than noise (rules.c says where). */
#ifndef RTG_ANALYZE_RULES_H
#define RTG_ANALYZE_RULES_H

#include "attrib.h"
#include "launch.h"

enum an_rule_id {
  AN_RULE_SYNC_AFTER_LAUNCH,
  AN_RULE_SYNC_COPY,
  AN_RULE_ALLOC_IN_LOOP,
  AN_RULE_PAGEABLE_COPY,
  AN_RULE_LAUNCH_BOUND,
  AN_RULE_QUEUE_DELAY,
  AN_RULE_LOW_UTILIZATION,
  AN_RULE_STARTUP,
  AN_NRULES
};

#define AN_FIRST_GPU_RULE AN_RULE_LAUNCH_BOUND

/* queue_delay: a queue time over this many times its queue's median, and
 * over AN_OUTLIER_MIN_NS */
#define AN_OUTLIER_FACTOR 10
#define AN_OUTLIER_MIN_NS 50000

typedef struct an_rule_info {
  const char *id, *title, *advice;
} an_rule_info;

extern const an_rule_info an_rules[AN_NRULES];

/* One instance: a call (name, tid), a kernel (name, tid that launched
 * it) or a window (name AN_NO_NAME; value = kernel busy time in it). */
typedef struct an_instance {
  uint64_t start, dur, tid, value;
  uint32_t name;
} an_instance;

#define AN_NO_NAME UINT32_MAX
#define AN_MAX_INSTANCES 5

typedef struct an_rule {
  bool evaluated; /* the trace had what the rule looks at */
  bool fired;
  uint64_t count; /* instances */
  uint64_t of;    /* what they are counted among (launches, kernels, chunks); 0: n/a */
  uint64_t cost;  /* ns */
  an_instance worst[AN_MAX_INSTANCES]; /* the longest first */
  int nworst;
  uint64_t unchecked; /* what the trace cannot tell (pageable_copy: copies without arguments) */
} an_rule;

/* Counts an instance into r, keeping the longest. */
void an_rule_instance(an_rule *r, an_instance in);

/* The process rules, from its calls sorted by thread and start, outer
 * call first (as an_attribute leaves them), with flags set; the window
 * [first, last) is from its first to its last kernel launch. */
void an_rules_process(const an_call *calls, size_t n, uint64_t first, uint64_t last,
                      an_rule out[AN_NRULES]);

/* The GPU rules, from its ops sorted by start (as an_attribute leaves
 * them), its result and its launch decomposition. */
void an_rules_gpu(const an_op *ops, size_t n, const an_result *r, const an_launch *l,
                  an_rule out[AN_NRULES]);

#endif
