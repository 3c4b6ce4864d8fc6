/* One analysis for every output of a run that needs it: see analyze.h. */
#include "analyze.h"

an_state *an_shared(cv_ctx *ctx, const void *who, bool idle_only) {
  an_state *st = ctx->analysis;
  if (!st) {
    st = ctx->analysis = an_new(ctx);
    st->feeder = who;
    st->idle_only = true;
  }
  st->idle_only = st->idle_only && idle_only;
  st->users++;
  return st;
}

void an_shared_add(an_state *st, const void *who, const cv_event *ev) {
  if (who == st->feeder) an_add(st, ev);
}

void an_shared_finish(an_state *st) {
  if (st->finished) return;
  an_finish(st);
  st->finished = true;
}

void an_shared_release(an_state *st) {
  if (--st->users) return;
  st->ctx->analysis = NULL;
  an_free(st);
}
