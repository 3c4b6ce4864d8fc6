/* --sqlite FILE: an rocmProfileData (RPD) database, schema version 3.
 *
 * HIP and HSA calls and ROCTx ranges/markers become rocpd_api rows (domains
 * "hip", "hsa", "UserMarker"), kernels and copies rocpd_op rows (types
 * KernelExecution, Copy<Kind>), and a call and the ops it caused are linked
 * in rocpd_api_ops through their correlation ids, with rocpd_kernelapi /
 * rocpd_copyapi rows for the launching call.  Barriers are not written (RPD
 * does not log them either).  gpuId is the GPU's number (agents.h: GPUs
 * only, as HIP numbers devices); an op the runtime timed on a host agent
 * (a copy) has gpuId -1.  Several hosts: pid += host * pid_stride and
 * gpuId += host * gpu_stride, as RPD's multi-node views expect.  The table
 * rtg_gpu_time holds the time model per (process, GPU) (span, busy, copy
 * busy, idle; shared/timemodel.h), and RPD's busy view reads it; the
 * kernels' resources are in tables of rtg's own (sqlite_kernels.c); the
 * table rtg_memory the memory records (allocations, frees, locks,
 * unlocks).
 * Everything is one transaction. */
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "convert.h"
#include "outfile.h"
#include "shared/corr.h"
#include "shared/memuse.h"
#include "shared/timemodel.h"
#include "sqlite_kernels.h"
#include "sqlite_schema.h"
#include "xalloc.h"

enum {
  S_STR,
  S_USTR,
  S_API,
  S_OP,
  S_LINK,
  S_KAPI,
  S_CAPI,
  S_FRAME,
  S_PEND,
  S_PEND_K,
  S_PEND_C,
  S_N
};
static const char *const sql[S_N] = {
    "INSERT INTO rocpd_string(id, string) VALUES (?, ?)",
    "INSERT INTO rocpd_ustring(id, string) VALUES (?, ?)",
    "INSERT INTO rocpd_api(id, pid, tid, start, end, apiName_id, category_id, domain_id, args_id)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    "INSERT INTO rocpd_op(id, gpuId, queueId, sequenceId, start, end, description_id, opType_id)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    "INSERT OR IGNORE INTO rocpd_api_ops(api_id, op_id) VALUES (?, ?)",
    "INSERT OR IGNORE INTO rocpd_kernelapi(api_ptr_id, stream, gridX, gridY, gridZ, workgroupX,"
    " workgroupY, workgroupZ, groupSegmentSize, privateSegmentSize, kernelName_id)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    "INSERT OR IGNORE INTO rocpd_copyapi(api_ptr_id, stream, size, width, height, kind, dst, src,"
    " dstDevice, srcDevice, sync, pinned) VALUES (?, ?, ?, 0, 0, ?, '', '', ?, ?, ?, 0)",
    "INSERT INTO rocpd_stackframe(api_ptr_id, depth, name_id) VALUES (?, ?, ?)",
    /* an op seen before its call keeps its launch details here until then */
    "INSERT OR REPLACE INTO temp.rtg_launch VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
    " ?)",
    "INSERT OR IGNORE INTO rocpd_kernelapi SELECT ?1, stream, gx, gy, gz, wx, wy, wz, lds,"
    " scratch, name_id FROM temp.rtg_launch WHERE op_id = ?2 AND type = 1",
    "INSERT OR IGNORE INTO rocpd_copyapi SELECT ?1, stream, size, 0, 0, kind, '', '', dst, src,"
    " sync, 0 FROM temp.rtg_launch WHERE op_id = ?2 AND type = 2",
};

typedef struct rpd {
  cv_ctx *ctx;
  sqlite3 *db;
  sqlite3_stmt *st[S_N];
  rtg_u64map strings; /* cv strtab id -> rocpd_string id */
  int64_t next_string, next_ustring, next_api, next_op;
  int64_t empty, dom_hip, dom_hsa, dom_mpi, marker, kernel_exec;
  corr_table link;
  tm_index model;
  rpd_kernels kernels; /* the kernels' resources */
  bool failed;
} rpd;

static void fail(rpd *r, const char *what) {
  if (!r->failed)
    rtg_error("cannot write database: path=%s: %s: %s", r->ctx->opt.sqlite_out, what,
              sqlite3_errmsg(r->db));
  r->failed = true;
}

static void step(rpd *r, int which) {
  sqlite3_stmt *s = r->st[which];
  if (sqlite3_step(s) != SQLITE_DONE) fail(r, sql[which]);
  sqlite3_reset(s);
}

static int64_t string_id(rpd *r, const char *s) {
  uint32_t cid = cv_intern(r->ctx, s ? s : "");
  bool added;
  uint64_t *v = rtg_u64map_put(&r->strings, cid, (uint64_t)r->next_string, &added);
  if (added) {
    sqlite3_stmt *st = r->st[S_STR];
    sqlite3_bind_int64(st, 1, r->next_string++);
    sqlite3_bind_text(st, 2, cv_str(r->ctx, cid), -1, SQLITE_STATIC);
    step(r, S_STR);
  }
  return (int64_t)*v;
}

static int64_t ustring_id(rpd *r, const char *s) {
  if (!s || !*s) return 1;
  sqlite3_stmt *st = r->st[S_USTR];
  sqlite3_bind_int64(st, 1, r->next_ustring);
  sqlite3_bind_text(st, 2, s, -1, SQLITE_TRANSIENT);
  step(r, S_USTR);
  return r->next_ustring++;
}

static bool exec(rpd *r, const char *text) {
  char *err = NULL;
  if (sqlite3_exec(r->db, text, NULL, NULL, &err) != SQLITE_OK) {
    rtg_error("cannot write database: path=%s: %s", r->ctx->opt.sqlite_out, err ? err : "?");
    sqlite3_free(err);
    r->failed = true;
    return false;
  }
  return true;
}

static void *rpd_open(cv_ctx *ctx) {
  rpd *r = rtg_xcalloc(1, sizeof *r, "the RPD output");
  if (!corr_init(&r->link, corr_slots_setting())) rtg_out_of_memory("the RPD's call/op tables");
  r->ctx = ctx;
  tm_init(&r->model, ctx, 0, false, NULL, NULL);
  /* a new database (an empty file: outfile.h), not rows added to an old one */
  const char *path = rtg_out_path(ctx->opt.sqlite_out);
  if (!path) {
    rtg_error("cannot create database: path=%s: %m", ctx->opt.sqlite_out);
    corr_free(&r->link);
    tm_free(&r->model);
    free(r);
    return NULL;
  }
  if (sqlite3_open(path, &r->db) != SQLITE_OK) {
    rtg_error("cannot create database: path=%s: %s", ctx->opt.sqlite_out, sqlite3_errmsg(r->db));
    sqlite3_close(r->db);
    free(r);
    return NULL;
  }
  /* one transaction, no journal: a failed run leaves no half database */
  if (!exec(r, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; BEGIN;") || !exec(r, rpd_tables) ||
      !exec(r, "CREATE TEMP TABLE rtg_launch (op_id integer PRIMARY KEY, type integer,"
               " stream text, gx, gy, gz, wx, wy, wz, lds, scratch, name_id, size, kind, dst, src,"
               " sync);")) {
    sqlite3_close(r->db);
    free(r);
    return NULL;
  }
  for (int i = 0; i < S_N; i++)
    if (sqlite3_prepare_v2(r->db, sql[i], -1, &r->st[i], NULL) != SQLITE_OK) fail(r, sql[i]);
  if (!rpd_kernels_open(&r->kernels, r->db)) fail(r, r->kernels.what);
  r->next_string = r->next_ustring = r->next_api = r->next_op = 1;
  r->empty = string_id(r, ""); /* id 1, as RPD has it */
  sqlite3_bind_int64(r->st[S_USTR], 1, r->next_ustring++);
  sqlite3_bind_text(r->st[S_USTR], 2, "", -1, SQLITE_STATIC);
  step(r, S_USTR);
  r->dom_hip = string_id(r, "hip");
  r->dom_mpi = -1; /* (made at the first MPI call: other databases stay as they were) */
  r->dom_hsa = string_id(r, "hsa");
  r->marker = string_id(r, "UserMarker");
  r->kernel_exec = string_id(r, "KernelExecution");
  return r;
}

/* hipMemcpyKind of a copy kind name */
static int copy_kind(const char *k) {
  if (!strncmp(k, "HostToHost", 10)) return 0;
  if (!strncmp(k, "HostToDevice", 12)) return 1;
  if (!strncmp(k, "DeviceToHost", 12)) return 2;
  if (!strncmp(k, "DeviceToDevice", 14)) return 3;
  return 4;
}

typedef struct frame_ctx {
  rpd *r;
  int64_t api;
  int depth;
} frame_ctx;
static void put_frame(void *arg, const char *frame) {
  frame_ctx *f = arg;
  sqlite3_stmt *st = f->r->st[S_FRAME];
  sqlite3_bind_int64(st, 1, f->api);
  sqlite3_bind_int(st, 2, f->depth++);
  sqlite3_bind_int64(st, 3, string_id(f->r, frame));
  step(f->r, S_FRAME);
}

/* A call and an op of it: link them, and describe the launch. The op's
 * details travel in the corr value: a = op row, b = kind (1 kernel, 2
 * copy), c = unused. */
static void link_rows(rpd *r, int64_t api, int64_t op) {
  sqlite3_stmt *st = r->st[S_LINK];
  sqlite3_bind_int64(st, 1, api);
  sqlite3_bind_int64(st, 2, op);
  step(r, S_LINK);
}

/* A call and an op that waited for it (in the pending table). */
static void link_pending(void *arg, corr_val call, corr_val op) {
  rpd *r = arg;
  link_rows(r, (int64_t)call.a, (int64_t)op.a);
  for (int w = S_PEND_K; w <= S_PEND_C; w++) {
    sqlite3_bind_int64(r->st[w], 1, (int64_t)call.a);
    sqlite3_bind_int64(r->st[w], 2, (int64_t)op.a);
    step(r, w);
  }
}

static void launch_rows(rpd *r, int64_t api, const cv_event *ev) {
  char stream[24];
  snprintf(stream, sizeof stream, "%llu", (unsigned long long)ev->queue);
  if (ev->type == CV_KERNEL) {
    sqlite3_stmt *st = r->st[S_KAPI];
    sqlite3_bind_int64(st, 1, api);
    sqlite3_bind_text(st, 2, stream, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 3, ev->grid.x);
    sqlite3_bind_int64(st, 4, ev->grid.y);
    sqlite3_bind_int64(st, 5, ev->grid.z);
    sqlite3_bind_int64(st, 6, ev->wg.x);
    sqlite3_bind_int64(st, 7, ev->wg.y);
    sqlite3_bind_int64(st, 8, ev->wg.z);
    sqlite3_bind_int64(st, 9, (int64_t)ev->lds);
    sqlite3_bind_int64(st, 10, (int64_t)ev->scratch);
    sqlite3_bind_int64(st, 11, string_id(r, ev->name));
    step(r, S_KAPI);
  } else if (ev->type == CV_COPY) {
    sqlite3_stmt *st = r->st[S_CAPI];
    sqlite3_bind_int64(st, 1, api);
    sqlite3_bind_text(st, 2, "", -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 3, (int64_t)ev->bytes);
    sqlite3_bind_int(st, 4, copy_kind(ev->name));
    sqlite3_bind_int64(st, 5, ev->has_agents ? ev->dst_agent : 0);
    sqlite3_bind_int64(st, 6, ev->has_agents ? ev->src_agent : 0);
    sqlite3_bind_int(st, 7, ev->args && strstr(ev->args, "Async") ? 0 : 1);
    step(r, S_CAPI);
  }
}

static void pending(rpd *r, int64_t op, const cv_event *ev) {
  sqlite3_stmt *st = r->st[S_PEND];
  char stream[24];
  snprintf(stream, sizeof stream, "%llu", (unsigned long long)ev->queue);
  bool k = ev->type == CV_KERNEL;
  int64_t v[] = {op,
                 k ? 1 : 2,
                 0,
                 ev->grid.x,
                 ev->grid.y,
                 ev->grid.z,
                 ev->wg.x,
                 ev->wg.y,
                 ev->wg.z,
                 (int64_t)ev->lds,
                 (int64_t)ev->scratch,
                 k ? string_id(r, ev->name) : 0,
                 (int64_t)ev->bytes,
                 k ? 0 : copy_kind(ev->name),
                 ev->has_agents ? ev->dst_agent : 0,
                 ev->has_agents ? ev->src_agent : 0,
                 ev->args && strstr(ev->args, "Async") ? 0 : 1};
  for (int i = 0; i < 17; i++) sqlite3_bind_int64(st, i + 1, v[i]);
  sqlite3_bind_text(st, 3, k ? stream : "", -1, SQLITE_TRANSIENT);
  step(r, S_PEND);
}

static int64_t gpu_id(const cv_proc *p, rtg_device d) {
  if (rtg_device_class_of(d) != RTG_DEV_GPU) return -1;
  return (int64_t)p->host * 1000 + rtg_device_number(d);
}

/* An API row's args: a record of repeated HSA calls is one row, from the
 * first call's start to the last one's end, whose args end with
 * " polls:N busy:NS" (the calls and the sum of their durations). */
static const char *api_args(const cv_event *ev, char *buf, size_t cap) {
  if (!ev->polls) return ev->args;
  snprintf(buf, cap, "%s polls:%llu busy:%llu", ev->args ? ev->args : "",
           (unsigned long long)ev->polls, (unsigned long long)ev->busy);
  return buf;
}

static void rpd_event(void *stp, const cv_event *ev) {
  rpd *r = stp;
  char args[4096];
  if (r->failed) return;
  tm_event(&r->model, ev);
  const cv_proc *p = &r->ctx->procs[ev->proc];
  int64_t pid = (int64_t)p->host * 10000000 + p->pid;
  switch (ev->type) {
  case CV_HIP_API:
  case CV_HSA_API:
  case CV_MPI:
  case CV_MARK:
  case CV_RANGE: {
    bool marker = ev->type == CV_MARK || ev->type == CV_RANGE;
    if (ev->type == CV_MPI && r->dom_mpi < 0) r->dom_mpi = string_id(r, "mpi");
    int64_t id = r->next_api++;
    sqlite3_stmt *st = r->st[S_API];
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_int64(st, 2, pid);
    sqlite3_bind_int64(st, 3, (int64_t)ev->tid);
    sqlite3_bind_int64(st, 4, (int64_t)ev->start);
    sqlite3_bind_int64(st, 5, (int64_t)ev->end);
    sqlite3_bind_int64(st, 6, marker ? r->marker : string_id(r, ev->name));
    sqlite3_bind_int64(st, 7, r->empty);
    sqlite3_bind_int64(st, 8,
                       marker                   ? r->marker
                       : ev->type == CV_HIP_API ? r->dom_hip
                       : ev->type == CV_MPI     ? r->dom_mpi
                                                : r->dom_hsa);
    sqlite3_bind_int64(st, 9, ustring_id(r, marker ? ev->name : api_args(ev, args, sizeof args)));
    step(r, S_API);
    if (ev->stack) {
      frame_ctx f = {r, id, 0};
      cv_stack_frames(r->ctx, ev->proc, ev->stack, put_frame, &f);
    }
    if (ev->has_corr && !marker) {
      corr_val call = {(uint64_t)id, 0, 0, 0};
      corr_call(&r->link, corr_key(ev->proc, ev->corr), call, link_pending, r);
    }
    return;
  }
  case CV_KERNEL:
  case CV_COPY: {
    bool k = ev->type == CV_KERNEL;
    int64_t id = r->next_op++;
    char type[80];
    snprintf(type, sizeof type, "Copy%s", ev->name);
    sqlite3_stmt *st = r->st[S_OP];
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_int64(st, 2, gpu_id(p, ev->device));
    sqlite3_bind_int64(st, 3, (int64_t)(ev->queue == UINT64_MAX ? 0 : ev->queue));
    sqlite3_bind_int64(st, 4, (int64_t)ev->id);
    sqlite3_bind_int64(st, 5, (int64_t)ev->start);
    sqlite3_bind_int64(st, 6, (int64_t)ev->end);
    sqlite3_bind_int64(st, 7, k ? string_id(r, ev->name) : r->empty);
    sqlite3_bind_int64(st, 8, k ? r->kernel_exec : string_id(r, type));
    step(r, S_OP);
    if (k && ev->kinfo && !rpd_kernels_op(&r->kernels, id, ev->kinfo)) fail(r, r->kernels.what);
    if (ev->has_corr) {
      corr_val op = {(uint64_t)id, 0, 0, 0}, call;
      if (corr_op(&r->link, corr_key(ev->proc, ev->corr), op, &call)) {
        link_rows(r, (int64_t)call.a, id);
        launch_rows(r, (int64_t)call.a, ev);
      } else {
        pending(r, id, ev);
      }
    }
    return;
  }
  default:
    return;
  }
}

/* The time model's rows (rtg_gpu_time), which the busy view reads. */
static void gpu_time_rows(rpd *r) {
  tm_finish(&r->model);
  sqlite3_stmt *st;
  if (!exec(r, rtg_gpu_time_table)) return;
  const char *ins = "INSERT INTO rtg_gpu_time VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
  if (sqlite3_prepare_v2(r->db, ins, -1, &st, NULL) != SQLITE_OK) {
    fail(r, ins);
    return;
  }
  for (uint32_t i = 0; i < r->model.x.n && !r->failed; i++) {
    const tm_res *m = (const tm_res *)r->model.x.r[i];
    if (!m->ok) continue;
    const cv_proc *p = &r->ctx->procs[m->base.proc];
    int64_t v[8] = {(int64_t)p->host * 10000000 + p->pid,
                    gpu_id(p, m->base.device),
                    (int64_t)m->t.span_start,
                    (int64_t)m->t.span_end,
                    (int64_t)m->t.span,
                    (int64_t)m->t.busy,
                    (int64_t)m->t.copy_busy,
                    (int64_t)m->t.idle};
    for (int k = 0; k < 8; k++) sqlite3_bind_int64(st, k + 1, v[k]);
    if (sqlite3_step(st) != SQLITE_DONE) fail(r, ins);
    sqlite3_reset(st);
  }
  sqlite3_finalize(st);
}

/* The memory records (rtg_memory), in time order. */
static void memory_rows(rpd *r) {
  const cv_mem *mem = r->ctx->mem;
  if (!mem || !mem->n) return;
  sqlite3_stmt *st;
  if (!exec(r, rtg_memory_table)) return;
  const char *ins = "INSERT INTO rtg_memory VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
  if (sqlite3_prepare_v2(r->db, ins, -1, &st, NULL) != SQLITE_OK) {
    fail(r, ins);
    return;
  }
  for (size_t i = 0; i < mem->n && !r->failed; i++) {
    const cv_mem_rec *m = &mem->v[i];
    const cv_proc *p = &r->ctx->procs[m->proc];
    bool freeing = m->op == CV_MEM_FREE || m->op == CV_MEM_UNLOCK;
    char dev[64];
    sqlite3_bind_int64(st, 1, (int64_t)p->host * 10000000 + p->pid);
    sqlite3_bind_int64(st, 2, (int64_t)m->tid);
    sqlite3_bind_text(st, 3, cv_mem_op_name(m->op), -1, SQLITE_STATIC);
    if (m->kind)
      sqlite3_bind_text(st, 4, cv_mem_kind_name(m->kind), -1, SQLITE_STATIC);
    else
      sqlite3_bind_null(st, 4);
    if (m->has_agent) {
      sqlite3_bind_int64(st, 5, m->agent);
      sqlite3_bind_text(st, 6, rtg_device_name(m->device, dev, sizeof dev), -1, SQLITE_TRANSIENT);
    } else {
      sqlite3_bind_null(st, 5);
      sqlite3_bind_null(st, 6);
    }
    sqlite3_bind_int64(st, 7, (int64_t)m->start);
    sqlite3_bind_int64(st, 8, (int64_t)m->end);
    sqlite3_bind_int64(st, 9, (int64_t)m->addr);
    if (!freeing || m->matched)
      sqlite3_bind_int64(st, 10, (int64_t)m->size);
    else
      sqlite3_bind_null(st, 10);
    if (m->has_corr)
      sqlite3_bind_int64(st, 11, (int64_t)m->corr);
    else
      sqlite3_bind_null(st, 11);
    bool counted = m->has_agent && (m->op == CV_MEM_ALLOC || (m->op == CV_MEM_FREE && m->matched));
    if (counted)
      sqlite3_bind_int64(st, 12, (int64_t)m->in_use);
    else
      sqlite3_bind_null(st, 12);
    if (sqlite3_step(st) != SQLITE_DONE) fail(r, ins);
    sqlite3_reset(st);
  }
  sqlite3_finalize(st);
}

static bool rpd_close(void *stp) {
  rpd *r = stp;
  if (!r->failed) corr_finish(&r->link, link_pending, r); /* pairs found through a spill */
  for (int i = 0; i < S_N; i++) sqlite3_finalize(r->st[i]);
  if (!r->failed) exec(r, rpd_indexes);
  if (!r->failed) gpu_time_rows(r);
  if (!r->failed) memory_rows(r);
  if (!r->failed) exec(r, rpd_views);
  if (!rpd_kernels_close(&r->kernels, r->ctx, !r->failed)) fail(r, r->kernels.what);
  if (!r->failed) exec(r, "COMMIT;");
  bool ok = !r->failed;
  if (sqlite3_close(r->db) != SQLITE_OK) ok = false;
  /* (a failed run leaves no file: outfile.h) */
  rtg_u64map_free(&r->strings);
  corr_free(&r->link);
  tm_free(&r->model);
  free(r);
  return ok;
}

const cv_sink cv_sqlite_sink = {
    .name = "sqlite",
    .open = rpd_open,
    .event = rpd_event,
    .close = rpd_close,
};
