/* --sqlite: the kernels' resources, beside RPD's tables (which have no
 * columns for them):
 *   rtg_kernel      one row per KERNEL record: id (the row), pid (as
 *                   rocpd_api's), kernelId (the trace's kernel id), name,
 *                   arch, archVgpr, accumVgpr, sgpr, wavefront (NULL when
 *                   the tracer could not read the descriptor), staticLds,
 *                   staticScratch, kernarg (bytes)
 *   rtg_kernel_op   op_id (rocpd_op) -> kernel_id (rtg_kernel.id)
 *   rtg_kernel_dispatch  a view: each kernel op (rocpd_op's id, gpuId,
 *                   queueId, start, end, duration, kernelName) with its
 *                   kernel's row */
#include "sqlite_kernels.h"

#include <stddef.h>

static const char tables[] =
    "CREATE TABLE rtg_kernel (id integer NOT NULL PRIMARY KEY, pid integer NOT NULL,"
    " kernelId integer NOT NULL, name varchar(4096) NOT NULL, arch varchar(64),"
    " archVgpr integer, accumVgpr integer, sgpr integer, wavefront integer,"
    " staticLds integer, staticScratch integer, kernarg integer);\n"
    "CREATE TABLE rtg_kernel_op (op_id integer NOT NULL PRIMARY KEY,"
    " kernel_id integer NOT NULL);\n";

static const char view[] =
    "CREATE VIEW rtg_kernel_dispatch AS SELECT o.id, o.gpuId, o.queueId, o.start, o.end,"
    " (o.end - o.start) AS duration, s.string AS kernelName, k.pid, k.kernelId, k.arch,"
    " k.archVgpr, k.accumVgpr, k.sgpr, k.wavefront, k.staticLds, k.staticScratch, k.kernarg"
    " FROM rtg_kernel_op x JOIN rocpd_op o ON o.id = x.op_id"
    " JOIN rtg_kernel k ON k.id = x.kernel_id JOIN rocpd_string s ON s.id = o.description_id;\n";

bool rpd_kernels_open(rpd_kernels *k, sqlite3 *db) {
  k->db = db;
  k->op = NULL;
  k->what = "rtg_kernel";
  if (sqlite3_exec(db, tables, NULL, NULL, NULL) != SQLITE_OK) return false;
  k->what = "rtg_kernel_op";
  return sqlite3_prepare_v2(db, "INSERT INTO rtg_kernel_op VALUES (?, ?)", -1, &k->op, NULL) ==
         SQLITE_OK;
}

bool rpd_kernels_op(rpd_kernels *k, int64_t op, const cv_kinfo *ki) {
  if (!ki->main_pass) return true;
  sqlite3_bind_int64(k->op, 1, op);
  sqlite3_bind_int64(k->op, 2, (int64_t)ki->index + 1);
  bool ok = sqlite3_step(k->op) == SQLITE_DONE;
  sqlite3_reset(k->op);
  k->what = "rtg_kernel_op";
  return ok;
}

static void bind_opt(sqlite3_stmt *st, int i, bool has, uint64_t v) {
  if (has)
    sqlite3_bind_int64(st, i, (int64_t)v);
  else
    sqlite3_bind_null(st, i);
}

bool rpd_kernels_close(rpd_kernels *k, const cv_ctx *ctx, bool write) {
  sqlite3_finalize(k->op);
  k->op = NULL;
  if (!write) return true;
  sqlite3_stmt *st;
  k->what = "rtg_kernel";
  if (sqlite3_prepare_v2(k->db,
                         "INSERT INTO rtg_kernel VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", -1,
                         &st, NULL) != SQLITE_OK)
    return false;
  bool ok = true;
  for (uint32_t i = 0; i < ctx->nkinfos && ok; i++) {
    const cv_kinfo *ki = ctx->kinfos[i];
    if (!ki->main_pass) continue;
    const cv_proc *p = &ctx->procs[ki->proc];
    sqlite3_bind_int64(st, 1, (int64_t)ki->index + 1);
    sqlite3_bind_int64(st, 2, (int64_t)p->host * 10000000 + p->pid);
    sqlite3_bind_int64(st, 3, (int64_t)ki->id);
    sqlite3_bind_text(st, 4, ki->name, -1, SQLITE_STATIC);
    if (ki->arch)
      sqlite3_bind_text(st, 5, ki->arch, -1, SQLITE_STATIC);
    else
      sqlite3_bind_null(st, 5);
    bind_opt(st, 6, ki->has_regs, ki->arch_vgpr);
    bind_opt(st, 7, ki->has_regs, ki->accum_vgpr);
    bind_opt(st, 8, ki->has_regs, ki->sgpr);
    bind_opt(st, 9, ki->has_regs, ki->wavefront);
    bind_opt(st, 10, ki->has_lds, ki->lds);
    bind_opt(st, 11, ki->has_scratch, ki->scratch);
    bind_opt(st, 12, ki->has_kernarg, ki->kernarg);
    ok = sqlite3_step(st) == SQLITE_DONE;
    sqlite3_reset(st);
  }
  sqlite3_finalize(st);
  if (!ok) return false;
  k->what = "rtg_kernel_dispatch";
  return sqlite3_exec(k->db, view, NULL, NULL, NULL) == SQLITE_OK;
}
