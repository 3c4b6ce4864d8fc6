/* The passes over the inputs, which the driver (main.c, and the fuzz
 * targets as main.c does) runs:
 *   - the span: --start/--end in percent and --zero need the span of the
 *     trace before any output is written: a quiet pass with no sinks;
 *   - the main pass: every event to every sink;
 *   - a second pass, when a sink says it needs one (cv_sink.second_pass):
 *     quiet, uncounted, every event to those sinks only. */
#include <string.h>

#include "convert.h"

/* One pass over all inputs; false if any could not be read. */
static bool pass(cv_ctx *ctx, enum cv_pass which) {
  int quiet = rtg_diag_quiet;
  if (which != CV_PASS_MAIN) rtg_diag_quiet = 1;
  ctx->pass = which;
  cv_align_hosts(ctx); /* (before the first) */
  bool ok = true;
  cv_pass_begin(ctx);
  if (!cv_read_inputs_of(ctx, ctx->inputs, ctx->ninputs)) ok = false;
  ctx->pass = CV_PASS_MAIN;
  rtg_diag_quiet = quiet;
  return ok;
}

void cv_measure_span(cv_ctx *ctx) {
  int nsinks = ctx->nsinks;
  ctx->nsinks = 0;
  pass(ctx, CV_PASS_SPAN);
  ctx->nsinks = nsinks;
  memset(ctx->counts, 0, sizeof ctx->counts);
}

bool cv_read_inputs(cv_ctx *ctx) {
  bool ok = pass(ctx, CV_PASS_MAIN);
  bool second = false;
  for (int i = 0; i < ctx->nsinks; i++) {
    if (!ctx->sinks[i].ops->second_pass) continue;
    if (ctx->sinks[i].ops->first_pass_end) ctx->sinks[i].ops->first_pass_end(ctx->sinks[i].state);
    second = true;
  }
  if (second) pass(ctx, CV_PASS_SECOND);
  return ok;
}
