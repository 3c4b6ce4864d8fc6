/* The timelines' gap slices; see gapslices.h. */
#include "gapslices.h"

#include <stdlib.h>

#include "sort.h"
#include "xalloc.h"

static void piece(void *arg, const an_piece *p);

void an_slices_init(an_slices *s, cv_ctx *ctx) {
  *s = (an_slices){.st = an_shared(ctx, s, true)};
  an_on_piece(s->st, piece, s, true);
}

void an_slices_add(an_slices *s, const cv_event *ev) {
  an_shared_add(s->st, s, ev);
}

static void piece(void *arg, const an_piece *p) {
  an_slices *s = arg;
  if (s->n == s->cap) {
    s->cap = s->cap ? s->cap * 2 : 256;
    s->v = rtg_xrealloc(s->v, s->cap * sizeof *s->v, "the gap slices");
  }
  s->v[s->n++] = *p;
}

static int slice_order(const void *a, const void *b) {
  const an_piece *x = a, *y = b;
  if (x->proc != y->proc) return x->proc < y->proc ? -1 : 1;
  if (x->device != y->device) return x->device < y->device ? -1 : 1;
  uint64_t qx = x->queue == AN_NO_QUEUE ? 0 : (uint64_t)x->queue + 1;
  uint64_t qy = y->queue == AN_NO_QUEUE ? 0 : (uint64_t)y->queue + 1;
  if (qx != qy) return qx < qy ? -1 : 1;
  return x->start < y->start ? -1 : x->start > y->start;
}

void an_slices_finish(an_slices *s) {
  an_shared_finish(s->st);
  an_sort(s->v, s->n, sizeof *s->v, slice_order);
}

void an_slices_free(an_slices *s) {
  an_shared_release(s->st);
  free(s->v);
  *s = (an_slices){0};
}
