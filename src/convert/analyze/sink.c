/* rtg-convert --analyze: the sink that runs the analysis (analyze.h),
 * prints its report and writes its JSON. */
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "xalloc.h"
#include "outfile.h"

typedef struct an_sink {
  an_state *st;
  FILE *json; /* --analyze=FILE, opened with the other outputs; NULL: none */
  const char *path;
} an_sink;

/* The JSON is opened here, with the other outputs, so that one that cannot
 * be created stops the run before any output is written. */
static void *sink_open(cv_ctx *ctx) {
  an_sink *s = rtg_xcalloc(1, sizeof *s, "the --analyze output");
  s->path = ctx->opt.analyze_out;
  if (strcmp(s->path, "-") && !(s->json = rtg_out_open(s->path))) {
    rtg_error("cannot create output: path=%s: %m", s->path);
    free(s);
    return NULL;
  }
  s->st = an_shared(ctx, s, false);
  return s;
}

static void sink_event(void *arg, const cv_event *ev) {
  an_shared_add(((an_sink *)arg)->st, arg, ev);
}

static bool sink_close(void *arg) {
  an_sink *s = arg;
  an_shared_finish(s->st);
  an_write_text(s->st, s->st->ctx->report);
  bool ok = true;
  if (s->json) {
    an_write_json(s->st, s->json);
    if (!rtg_out_close(s->json)) {
      rtg_error("cannot write output: path=%s: %s", s->path, rtg_out_why());
      ok = false;
    }
  }
  an_shared_release(s->st);
  free(s);
  return ok;
}

const cv_sink cv_analyze_sink = {
    .name = "analyze",
    .open = sink_open,
    .event = sink_event,
    .close = sink_close,
};
