/* rtg-convert --html FILE: the sink (html.h). */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "outfile.h"

/* What the report's arguments may take (bytes of distinct argument
 * texts); the events whose arguments come later are shown without them. */
#define ARGS_BUDGET (24u << 20)
/* Events embedded one by one; above, the coverage bins and the events
 * around the largest gaps (RTG_HTML_MAX_EVENTS changes it). */
#define MAX_EVENTS (4u << 20)

/* The report and its analysis, hundreds of MB for a large trace, are left
 * to the process's exit when closed (rtg-convert exits after its outputs
 * are closed; freeing them block by block only delays that), but where a
 * leak check runs (AddressSanitizer) or RTG_CONVERT_FREE is set. */
#if defined(__SANITIZE_ADDRESS__)
#define FREE_AT_CLOSE true
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FREE_AT_CLOSE true
#endif
#endif
#ifndef FREE_AT_CLOSE
#define FREE_AT_CLOSE (getenv("RTG_CONVERT_FREE") != NULL)
#endif

static void *sink_open(cv_ctx *ctx) {
  ht_state *h = calloc(1, sizeof *h);
  if (!h) oom();
  h->ctx = ctx;
  h->path = ctx->opt.html_out;
  /* opened here, with the other outputs: one that cannot be created stops
   * the run before any output is written */
  if (!(h->out = rtg_out_open(h->path))) {
    rtg_error("cannot create output: path=%s: %m", h->path);
    free(h);
    return NULL;
  }
  h->an = an_shared(ctx, h, false);
  an_on_piece(h->an, ht_piece_cb, h, false);
  h->args = rtg_strtab_new();
  if (!h->args) oom();
  h->args_budget = ARGS_BUDGET;
  h->max_events = MAX_EVENTS;
  const char *m = getenv("RTG_HTML_MAX_EVENTS");
  if (m && *m) h->max_events = strtoull(m, NULL, 10);
  h->names = rtg_strtab_new();
  if (!h->names) oom();
  h->barrier_name = ht_name_id(h, "barrier");
  h->names_at = -1;
  ht_feed_start(h);
  return h;
}

static void sink_event(void *arg, const cv_event *ev) {
  ht_state *h = arg;
  an_shared_add(h->an, h, ev);
  ht_in in = {.start = ev->start, .end = ev->end, .proc = ev->proc, .name = ev->name};
  switch (ev->type) {
  case CV_HIP_API:
  case CV_HSA_API:
    in.kind = ev->type == CV_HIP_API ? HT_HIP : HT_HSA;
    in.key = ev->tid;
    in.args = ev->args;
    break;
  case CV_KERNEL:
  case CV_BARRIER:
    in.kind = HT_QUEUE;
    in.key = (uint64_t)ev->device << 32 | (uint32_t)ev->queue;
    if (ev->type == CV_BARRIER) in.name = "barrier";
    if (ev->has_dims) {
      in.args_how = HT_ARGS_DIMS;
      const uint32_t v[6] = {ev->grid.x, ev->grid.y, ev->grid.z, ev->wg.x, ev->wg.y, ev->wg.z};
      memcpy(in.v, v, sizeof v);
    } else if (ev->type == CV_BARRIER && ev->has_deps)
      in.args = "waits on dependency signals";
    break;
  case CV_COPY:
    in.kind = HT_COPY;
    in.key = (uint64_t)ev->device << 32 | (ev->has_engine ? (uint32_t)ev->queue : UINT32_MAX);
    in.copy_name = true;
    in.has_bytes = ev->has_bytes;
    in.bytes = ev->bytes;
    if (ev->has_agents) {
      in.args_how = HT_ARGS_AGENTS;
      in.v[0] = ev->src_agent, in.v[1] = ev->dst_agent;
    }
    break;
  case CV_MARK:
  case CV_RANGE:
  case CV_SYSCALL:
    in.kind = ev->type == CV_SYSCALL ? HT_SYS : HT_MARK;
    in.key = ev->tid;
    in.args = ev->args;
    break;
  case CV_MPI: /* a run of repeated tests spans them all; args: its identification */
    in.kind = HT_MPI;
    in.key = ev->tid;
    in.args = ev->args;
    break;
  default:
    return;
  }
  ht_feed_put(h, &in);
}

static void *finish(void *arg) {
  an_shared_finish(arg);
  return NULL;
}

static bool sink_close(void *arg) {
  ht_state *h = arg;
  ht_feed_end(h); /* (every event filed) */
  /* the analysis on a thread of its own, the report's own work beside it */
  pthread_t th;
  bool threaded = !pthread_create(&th, NULL, finish, h->an);
  if (!threaded) an_shared_finish(h->an);
  ht_prepare(h);
  if (h->all_embedded) { /* (else once the windows are chosen) */
    ht_arrays_make(h);
    ht_write_head(h);
    ht_names_guess(h);
  }
  if (threaded) pthread_join(th, NULL);
  ht_compute(h);
  bool ok = ht_write(h);
  if (!rtg_out_close(h->out)) {
    rtg_error("cannot write output: path=%s: %s", h->path, rtg_out_why());
    ok = false;
  }
  if (!FREE_AT_CLOSE) return ok; /* (the exit that follows frees it all at once) */
  ht_free_data(h);
  ht_arrays_free(h);
  for (uint32_t i = 0; i < h->nt; i++) free(h->t[i].v);
  free(h->t);
  rtg_u64map_free(&h->track_index);
  rtg_strtab_free(h->args);
  rtg_strtab_free(h->names);
  free(h->guess);
  an_shared_release(h->an);
  free(h);
  return ok;
}

const cv_sink cv_html_sink = {
    .name = "html",
    .open = sink_open,
    .event = sink_event,
    .close = sink_close,
};
