/* The gap trackers of the GPU resources, by resource; see gapindex.h. */
#include "gapindex.h"

#include <stdlib.h>

#include "xalloc.h"

/* A tracker's gap, to the index's function with the entry. */
static void res_gap(void *arg, uint64_t start, uint64_t end, uint32_t before, uint32_t after) {
  gap_res *r = arg;
  r->x->on_gap(r->x->arg, r, start, end, before, after);
}

void gap_index_init(gap_index *x, size_t size, gap_res_fn on_gap, void *arg) {
  *x = (gap_index){.size = size < sizeof(gap_res) ? sizeof(gap_res) : size};
  x->on_gap = on_gap;
  x->arg = arg;
}

gap_res *gap_index_get(gap_index *x, uint32_t proc, rtg_device device, uint64_t queue,
                       bool *added) {
  /* (a bijection of (proc, device) for each queue) */
  uint64_t key = rtg_mix64(((uint64_t)proc << 32 | device) ^ rtg_mix64(queue));
  bool add;
  uint64_t *ix = rtg_u64map_put(&x->map, key, x->n, &add);
  if (!ix) rtg_out_of_memory("the index of GPU gap trackers");
  if (added) *added = add;
  if (!add) return x->r[*ix];
  if (x->n == x->cap) {
    x->cap = x->cap ? x->cap * 2 : 16;
    x->r = rtg_xrealloc(x->r, x->cap * sizeof *x->r, "the index of GPU gap trackers");
  }
  gap_res *r = rtg_xcalloc(1, x->size, "a GPU gap tracker");
  r->proc = proc, r->device = device, r->queue = queue, r->x = x;
  gt_init(&r->gt, x->on_gap ? res_gap : NULL, r);
  gt_join(&r->gt, &x->pool);
  x->r[x->n++] = r;
  return r;
}

void gap_index_finish(gap_index *x) {
  for (uint32_t i = 0; i < x->n; i++) gt_finish(&x->r[i]->gt);
}

void gap_index_free(gap_index *x) {
  for (uint32_t i = 0; i < x->n; i++) {
    gt_free(&x->r[i]->gt);
    free(x->r[i]);
  }
  free(x->r);
  gt_pool_free(&x->pool);
  rtg_u64map_free(&x->map);
  *x = (gap_index){0};
}
