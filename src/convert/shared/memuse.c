/* The memory records of every process: see memuse.h. */
#include "memuse.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

void cv_mem_add(cv_ctx *ctx, const cv_mem_rec *m) {
  cv_mem *mem = ctx->mem;
  if (!mem) mem = ctx->mem = rtg_xcalloc(1, sizeof *mem, "the memory records");
  if (mem->n == mem->cap) {
    size_t nc = mem->cap ? 2 * mem->cap : 256;
    mem->v = rtg_xrealloc(mem->v, nc * sizeof *mem->v, "the memory records");
    mem->cap = nc;
  }
  mem->v[mem->n++] = *m;
  mem->resolved = false;
}

/* by process, then time; records at one time keep their input order (an
 * allocation before the free of its address at the same ns) */
static int by_time(const void *a, const void *b) {
  const cv_mem_rec *x = a, *y = b;
  if (x->proc != y->proc) return x->proc < y->proc ? -1 : 1;
  if (x->start != y->start) return x->start < y->start ? -1 : 1;
  return x->in_use < y->in_use ? -1 : x->in_use > y->in_use; /* input order, kept there */
}

/* (proc, agent) -> bytes in use; (proc, addr, lock?) -> index + 1 of the
 * open allocation or lock */
static uint64_t addr_key(uint32_t proc, uint64_t addr, bool lock) {
  return rtg_mix64(addr ^ ((uint64_t)proc << 1 | lock) * 0x9e3779b97f4a7c15ull);
}

cv_mem *cv_mem_resolve(cv_ctx *ctx) {
  cv_mem *mem = ctx->mem;
  if (!mem || mem->resolved) return mem;
  for (size_t i = 0; i < mem->n; i++) mem->v[i].in_use = i; /* the input order, for the sort */
  qsort(mem->v, mem->n, sizeof *mem->v, by_time);
  rtg_u64map open = {0}, use = {0};
  mem->unknown_frees = 0;
  for (size_t i = 0; i < mem->n; i++) {
    cv_mem_rec *m = &mem->v[i];
    bool lock = m->op == CV_MEM_LOCK || m->op == CV_MEM_UNLOCK;
    uint64_t key = addr_key(m->proc, m->addr, lock);
    m->matched = m->leaked = false;
    m->in_use = 0;
    if (m->op == CV_MEM_ALLOC || m->op == CV_MEM_LOCK) {
      uint64_t *o = rtg_u64map_put(&open, key, 0, NULL);
      if (!o) rtg_out_of_memory("the memory records");
      *o = i + 1;
      m->leaked = true; /* until freed */
    } else {
      uint64_t *o = rtg_u64map_get(&open, key);
      const cv_mem_rec *a = o && *o ? &mem->v[*o - 1] : NULL;
      if (a && a->proc == m->proc && a->addr == m->addr) {
        m->matched = true;
        m->size = a->size;
        m->agent = a->agent;
        m->device = a->device;
        m->kind = a->kind;
        m->has_agent = a->has_agent;
        mem->v[*o - 1].leaked = false;
        *o = 0;
      } else {
        mem->unknown_frees++;
      }
    }
    if (lock || !m->has_agent) continue;
    uint64_t *u = rtg_u64map_put(&use, (uint64_t)m->proc << 32 | m->agent, 0, NULL);
    if (!u) rtg_out_of_memory("the memory records");
    if (m->op == CV_MEM_ALLOC)
      *u += m->size;
    else if (m->matched)
      *u -= *u >= m->size ? m->size : *u;
    m->in_use = *u;
  }
  rtg_u64map_free(&open);
  rtg_u64map_free(&use);
  mem->resolved = true;
  return mem;
}

void cv_mem_free(cv_ctx *ctx) {
  if (!ctx->mem) return;
  free(ctx->mem->v);
  free(ctx->mem);
  ctx->mem = NULL;
}

const char *cv_mem_op_name(uint8_t op) {
  static const char *const n[] = {"alloc", "free", "lock", "unlock"};
  return op < 4 ? n[op] : "?";
}

const char *cv_mem_kind_name(uint8_t kind) {
  static const char *const n[] = {"", "device", "host", "pinned", "managed"};
  return kind < 5 ? n[kind] : "";
}
