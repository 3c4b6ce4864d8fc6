/* rtg-convert --html FILE: the sink (html.h). */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "outfile.h"
#include "shared/names.h"

/* What the report's arguments may take (bytes of distinct argument
 * texts); the events whose arguments come later are shown without them. */
#define ARGS_BUDGET (24u << 20)
/* Events embedded one by one; above, the coverage bins and the events
 * around the largest gaps (RTG_HTML_MAX_EVENTS changes it). */
#define MAX_EVENTS (4u << 20)

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
  h->barrier_name = cv_intern(ctx, "barrier");
  return h;
}

static ht_track *track_of(ht_state *h, uint32_t proc, uint8_t kind, uint64_t key) {
  ht_track *l = h->recent[kind];
  if (l && l->proc == proc && l->key == key) return l;
  h->recent[kind] = NULL; /* (the array may move) */
  uint64_t hk = rtg_mix64(rtg_mix64((uint64_t)proc << 8 | kind) ^ key);
  for (;; hk++) {
    bool added;
    uint64_t *v = rtg_u64map_put(&h->track_index, hk, 0, &added);
    if (!v) oom();
    if (*v) {
      ht_track *t = &h->t[*v - 1];
      if (t->proc == proc && t->kind == kind && t->key == key) return h->recent[kind] = t;
      continue; /* another track's hash: the next key */
    }
    if (h->nt == h->cap) {
      h->cap = h->cap ? h->cap * 2 : 16;
      ht_track *nt = realloc(h->t, h->cap * sizeof *nt);
      if (!nt) oom();
      h->t = nt;
    }
    h->t[h->nt] = (ht_track){.proc = proc, .kind = kind, .key = key};
    *v = ++h->nt;
    for (int k = 0; k < HT_NKINDS; k++) h->recent[k] = NULL;
    return h->recent[kind] = &h->t[h->nt - 1];
  }
}

static uint32_t args_id(ht_state *h, const char *s) {
  if (!s || !*s) return UINT32_MAX;
  size_t n = strlen(s);
  cv_cached *c = &h->args_cache[cv_cache_slot(s, n)];
  if (c->s && c->len == n && !memcmp(c->s, s, n)) return c->id;
  uint32_t id;
  if (rtg_strtab_bytes(h->args) + n > h->args_budget) {
    id = rtg_strtab_find(h->args, s, n);
    if (id == UINT32_MAX) h->args_dropped++;
  } else
    id = rtg_strtab_intern(h->args, s, n);
  if (id != UINT32_MAX) *c = (cv_cached){rtg_strtab_get(h->args, id), (uint32_t)n, id};
  return id;
}

/* "grid {x,y,z} workgroup {x,y,z}" without printf (which is slow) */
static char *put_u32(char *p, uint32_t v) {
  char t[10];
  int n = 0;
  do t[n++] = (char)('0' + v % 10);
  while ((v /= 10));
  while (n) *p++ = t[--n];
  return p;
}

static const char *dims(char *buf, const cv_event *ev) {
  const uint32_t v[6] = {ev->grid.x, ev->grid.y, ev->grid.z, ev->wg.x, ev->wg.y, ev->wg.z};
  char *p = buf;
  memcpy(p, "grid {", 6), p += 6;
  for (int i = 0; i < 6; i++) {
    p = put_u32(p, v[i]);
    if (i == 2)
      memcpy(p, "} workgroup {", 13), p += 13;
    else
      *p++ = i == 5 ? '}' : ',';
  }
  *p = 0;
  return buf;
}

static void add(ht_state *h, uint32_t proc, uint8_t kind, uint64_t key, const cv_event *ev,
                const char *name, const char *args) {
  ht_track *t = track_of(h, proc, kind, key);
  if (t->n == t->cap) {
    t->cap = t->cap ? t->cap * 2 : 256;
    ht_ev *nv = realloc(t->v, t->cap * sizeof *nv);
    if (!nv) oom();
    t->v = nv;
  }
  if (t->n && ev->start < t->v[t->n - 1].start) t->unsorted = true;
  uint64_t end = ev->end > ev->start ? ev->end : ev->start;
  uint32_t nid = cv_intern(h->ctx, name);
  if (nid > h->max_name) h->max_name = nid;
  t->v[t->n++] = (ht_ev){ev->start, end, nid, args_id(h, args)};
  if (end - ev->start > t->maxdur) t->maxdur = end - ev->start;
  if (!h->nev || ev->start < h->first) h->first = ev->start;
  if (end > h->last) h->last = end;
  h->nev++;
}

static void sink_event(void *arg, const cv_event *ev) {
  ht_state *h = arg;
  an_shared_add(h->an, h, ev);
  char buf[512];
  switch (ev->type) {
  case CV_HIP_API:
  case CV_HSA_API:
    add(h, ev->proc, ev->type == CV_HIP_API ? HT_HIP : HT_HSA, ev->tid, ev, ev->name, ev->args);
    return;
  case CV_KERNEL:
  case CV_BARRIER: {
    const char *args = NULL;
    if (ev->has_dims)
      args = dims(buf, ev);
    else if (ev->type == CV_BARRIER)
      args = ev->has_deps ? "waits on dependency signals" : NULL;
    add(h, ev->proc, HT_QUEUE, (uint64_t)ev->device << 32 | (uint32_t)ev->queue, ev,
        ev->type == CV_BARRIER ? "barrier" : ev->name, args);
    return;
  }
  case CV_COPY: {
    char name[256];
    uint32_t engine = ev->has_engine ? (uint32_t)ev->queue : UINT32_MAX;
    const char *args = NULL;
    if (ev->has_agents) {
      snprintf(buf, sizeof buf, "agents %u -> %u", ev->src_agent, ev->dst_agent);
      args = buf;
    }
    add(h, ev->proc, HT_COPY, (uint64_t)ev->device << 32 | engine, ev,
        cv_copy_name(ev, name, sizeof name), args);
    return;
  }
  case CV_MARK:
  case CV_RANGE:
    add(h, ev->proc, HT_MARK, ev->tid, ev, ev->name, ev->args);
    return;
  case CV_SYSCALL:
    add(h, ev->proc, HT_SYS, ev->tid, ev, ev->name, ev->args);
    return;
  default:
    return;
  }
}

static void *finish(void *arg) {
  an_shared_finish(arg);
  return NULL;
}

static bool sink_close(void *arg) {
  ht_state *h = arg;
  /* the analysis on a thread of its own, the report's own work beside it */
  pthread_t th;
  bool threaded = !pthread_create(&th, NULL, finish, h->an);
  if (!threaded) an_shared_finish(h->an);
  ht_prepare(h);
  if (h->all_embedded) ht_arrays_make(h); /* (else once the windows are chosen) */
  if (threaded) pthread_join(th, NULL);
  ht_compute(h);
  bool ok = ht_write(h);
  if (!rtg_out_close(h->out)) {
    rtg_error("cannot write output: path=%s: %s", h->path, rtg_out_why());
    ok = false;
  }
  ht_free_data(h);
  ht_arrays_free(h);
  for (uint32_t i = 0; i < h->nt; i++) free(h->t[i].v);
  free(h->t);
  rtg_u64map_free(&h->track_index);
  rtg_strtab_free(h->args);
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
