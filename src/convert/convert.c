/* The middle of rtg-convert: the process table, interning, and the
 * dispatch of every event to the sinks (after the time window). */
#include <stdlib.h>
#include <string.h>

#include "convert.h"
#include "xalloc.h"

uint32_t cv_intern(cv_ctx *ctx, const char *s) {
  if (!s) s = "";
  size_t n = strlen(s);
  cv_cached *c = &ctx->name_cache[cv_cache_slot(s, n)];
  if (c->s && c->len == n && !memcmp(c->s, s, n)) return c->id;
  uint32_t id = rtg_strtab_intern(ctx->strs, s, n);
  if (id == UINT32_MAX) rtg_out_of_memory("the table of names");
  *c = (cv_cached){rtg_strtab_get(ctx->strs, id), (uint32_t)n, id};
  return id;
}

const char *cv_str(const cv_ctx *ctx, uint32_t id) {
  return id == UINT32_MAX ? "" : rtg_strtab_get(ctx->strs, id);
}

uint32_t cv_host(cv_ctx *ctx, const char *host) {
  uint32_t id = cv_intern(ctx, host);
  for (uint32_t i = 0; i < ctx->nhosts; i++)
    if (ctx->hosts[i] == id) return i;
  uint32_t *nh = rtg_xrealloc(ctx->hosts, (ctx->nhosts + 1) * sizeof *nh, "the table of hosts");
  ctx->hosts = nh;
  ctx->hosts[ctx->nhosts] = id;
  return ctx->nhosts++;
}

uint32_t cv_proc_get(cv_ctx *ctx, uint32_t host, uint32_t pid) {
  bool added;
  uint64_t *v = rtg_u64map_put(&ctx->proc_index, (uint64_t)host << 32 | pid, ctx->nprocs, &added);
  if (!v) rtg_out_of_memory("the index of processes");
  if (added) {
    if (ctx->nprocs == ctx->cap_procs) {
      uint32_t nc = ctx->cap_procs ? ctx->cap_procs * 2 : 16;
      cv_proc *np = rtg_xrealloc(ctx->procs, nc * sizeof *np, "the table of processes");
      ctx->procs = np;
      ctx->cap_procs = nc;
    }
    ctx->procs[ctx->nprocs] =
        (cv_proc){.host = host, .pid = pid, .exe = UINT32_MAX, .rank = UINT32_MAX};
    ctx->nprocs++;
  }
  return (uint32_t)*v;
}

void cv_dispatch(cv_ctx *ctx, cv_event *ev) {
  if (ctx->pass == CV_PASS_SECOND) { /* no window: a host call may reach into a gap from outside */
    for (int i = 0; i < ctx->nsinks; i++)
      if (ctx->sinks[i].ops->second_pass) ctx->sinks[i].ops->second_pass(ctx->sinks[i].state, ev);
    return;
  }
  if (!ev->untimed) {
    if (ev->start < ctx->window_start || ev->start > ctx->window_end) {
      ctx->counts[CVC_OUTSIDE]++;
      return;
    }
    if (!ctx->first_ns || ev->start < ctx->first_ns) ctx->first_ns = ev->start;
    if (ev->end > ctx->last_ns) ctx->last_ns = ev->end;
  }
  if (ev->type != CV_JSON && !ev->prep) {
    for (int i = 0; i < ctx->nsinks; i++) ctx->sinks[i].ops->event(ctx->sinks[i].state, ev);
    return;
  }
  if (ev->type != CV_JSON) { /* what was prepared goes to the sink that prepared it */
    const char *prep = ev->prep;
    for (int i = 0; i < ctx->nsinks; i++) {
      ev->prep = i + 1 == ctx->prepare_sink ? prep : NULL;
      ctx->sinks[i].ops->event(ctx->sinks[i].state, ev);
    }
    ev->prep = prep;
    return;
  }
  ctx->counts[CVC_JSON_EVENTS]++;
  for (int i = 0; i < ctx->nsinks; i++)
    if (ctx->sinks[i].ops->json_event) ctx->sinks[i].ops->json_event(ctx->sinks[i].state, ev->json);
}

void cv_device_label(const cv_ctx *ctx, uint32_t proc, rtg_device device, char *buf, size_t cap) {
  rtg_agents_label(&ctx->procs[proc].agents, device, buf, cap);
}

bool cv_add_sink(cv_ctx *ctx, const cv_sink *ops) {
  void *st = ops->open(ctx);
  if (!st) return false;
  ctx->sinks[ctx->nsinks].ops = ops;
  ctx->sinks[ctx->nsinks].state = st;
  ctx->nsinks++;
  if (ops->prepare && !ctx->prepare_sink) {
    ops->prepare(st, &ctx->prepare);
    ctx->prepare_sink = ctx->nsinks;
  }
  return true;
}

bool cv_close_sinks(cv_ctx *ctx) {
  bool ok = true;
  cv_mem_resolve(ctx); /* once, before any sink (or a thread of one) reads them */
  for (int i = 0; i < ctx->nsinks; i++)
    if (!ctx->sinks[i].ops->close(ctx->sinks[i].state)) ok = false;
  ctx->nsinks = 0;
  ctx->prepare_sink = 0;
  return ok;
}

void cv_ctx_free(cv_ctx *ctx) {
  for (uint32_t i = 0; i < ctx->nprocs; i++) {
    rtg_agents_free(&ctx->procs[i].agents);
    rtg_u64map_free(&ctx->procs[i].stacks);
    rtg_u64map_free(&ctx->procs[i].symbols);
  }
  free(ctx->procs);
  free(ctx->hosts);
  rtg_u64map_free(&ctx->proc_index);
  rtg_u64map_free(&ctx->seen_files);
  rtg_u64map_free(&ctx->seen_headers);
  rtg_u64map_free(&ctx->demangled);
  for (uint32_t i = 0; i < ctx->nkinfos; i++) free(ctx->kinfos[i]);
  free(ctx->kinfos);
  rtg_clockmap_free(&ctx->clocks);
  cv_mpi_free(ctx);
  free(ctx->clock_of_host);
  rtg_strtab_free(ctx->strs);
  cv_mem_free(ctx);
}
