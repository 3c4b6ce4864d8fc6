/* Idle gaps and busy time of one GPU resource, from its ops as they come.
 *
 * Ops arrive roughly in completion order, not in start order, so they pass
 * through a bounded reorder heap (constant memory) and are swept in start
 * order: the union of their intervals is the busy time, the holes between
 * are the gaps.  Unions of compute and copy ops are kept apart so that
 * overlap = |compute| + |copy| - |compute u copy|. */
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
  gt_item *heap;
  uint32_t n, cap;
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
