/* Idle gaps and busy time of one GPU resource, from its ops as they come.
 *
 * Ops arrive roughly in completion order, not in start order, so they are
 * held back in a bounded reorder window (constant memory) and swept in
 * start order (then end, kind and name): the union of their intervals is
 * the busy time, the holes between are the gaps.  Unions of compute and
 * copy ops are kept apart so that
 * overlap = |compute| + |copy| - |compute u copy|.
 *
 * The window is a run of ops in sweep order (a ring: an op no earlier than
 * the run's last joins its end) and a heap of the ops that came earlier
 * than that; the next op swept is the smaller of the run's first and the
 * heap's top.  Ops that come in start order never touch the heap. */
#ifndef RTG_CONVERT_GAPTRACK_H
#define RTG_CONVERT_GAPTRACK_H

#include <stdbool.h>
#include <stdint.h>

enum { GT_COMPUTE = 0, GT_COPY = 1 };

typedef struct gt_item {
  uint64_t start, end;
  uint32_t name; /* caller's name id, handed back with gaps */
  uint32_t kind;
} gt_item;

typedef struct gt_union {
  uint64_t s, e, total;
  bool open;
} gt_union;

/* gap from `start` to `end`, between ops named before/after */
typedef void (*gt_gap_fn)(void *arg, uint64_t start, uint64_t end, uint32_t before, uint32_t after);

typedef struct gaptrack gaptrack;
/* Trackers that share one budget of held ops (gt_join): when they hold
 * more than budget together, the one that got no op for longest is swept
 * to its last op and its memory freed (a process whose trace has ended
 * gets no more ops: its results are what gt_finish would give).  A zeroed
 * pool has the default budget; RTG_CONVERT_GAP_BUDGET=N sets another
 * (tests). */
typedef struct gt_pool {
  gaptrack **t;
  uint32_t n, cap;
  uint64_t held, budget, clock;
} gt_pool;
struct gaptrack {
  gt_item *run;       /* ring of rcap (a power of two) ops in sweep order */
  uint32_t rhead, rn; /* its first op, and how many */
  uint32_t rcap;
  gt_item *heap; /* the ops that came earlier than the run's last */
  uint32_t hn, hcap;
  uint32_t n, cap; /* ops held (rn + hn), and the window's size now */
  gt_union all, compute, copy;
  uint32_t last_name;   /* name of the op whose end is all.e */
  uint64_t first, last; /* span of the ops */
  uint64_t ops, late;   /* late: arrived after the sweep passed their start */
  uint64_t swept_to;
  gt_gap_fn on_gap;
  void *arg;
  gt_pool *pool; /* NULL: none */
  uint64_t used; /* the pool's clock at its last op */
};

void gt_init(gaptrack *g, gt_gap_fn on_gap, void *arg);
/* g (which stays where it is) shares pool's budget from now on. */
void gt_join(gaptrack *g, gt_pool *pool);
void gt_pool_free(gt_pool *pool);
void gt_add(gaptrack *g, uint64_t start, uint64_t end, uint32_t kind, uint32_t name);
/* Sweep everything left; the totals are final afterwards. */
void gt_finish(gaptrack *g);
void gt_free(gaptrack *g);

static inline uint64_t gt_overlap(const gaptrack *g) {
  uint64_t sum = g->compute.total + g->copy.total;
  return sum > g->all.total ? sum - g->all.total : 0;
}

#endif
