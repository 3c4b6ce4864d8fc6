/* The gap slices of the timelines (rtg-convert -g, the Chrome JSON and
 * Perfetto outputs): every idle piece of each (process, GPU) and of each of
 * its queues, named by its cause, from the analysis's attribution (an
 * analysis that keeps only what the causes need: idle_only). */
#ifndef RTG_ANALYZE_GAPSLICES_H
#define RTG_ANALYZE_GAPSLICES_H

#include "analyze.h"

typedef an_piece an_slice; /* a slice: one idle piece, with its detail */

typedef struct an_slices {
  an_state *st;
  an_piece *v;
  size_t n, cap;
} an_slices;

void an_slices_init(an_slices *s, cv_ctx *ctx);
/* Each event, as for an_add. */
void an_slices_add(an_slices *s, const cv_event *ev);
/* Attributes and leaves the slices in s->v, by process, GPU, queue (the
 * GPU's first) and start; a track's slices are disjoint. */
void an_slices_finish(an_slices *s);
void an_slices_free(an_slices *s);

#endif
