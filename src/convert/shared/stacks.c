/* Host call stacks of a process (RTG_BACKTRACE): the STACK records (the
 * return addresses of a call) and the SYMBOL records (an address's
 * function, offset and module, written at process exit), kept per process
 * and turned into frames for the outputs. */
#include <stdio.h>
#include <stdlib.h>

#include "convert.h"

void cv_take_stack_or_symbol(cv_ctx *ctx, uint32_t host, const rtg_record *rec) {
  uint32_t ix = cv_proc_get(ctx, host, rec->pid); /* (first: it may move the table) */
  cv_proc *p = &ctx->procs[ix];
  if (rec->kind == RTG_KIND_STACK) {
    *rtg_u64map_put(&p->stacks, rec->u.STACK.id, 0, NULL) = cv_intern(ctx, rec->u.STACK.pcs);
    return;
  }
  if (rec->kind != RTG_KIND_SYMBOL) return;
  char buf[1024];
  const char *mod = RTG_HAS(rec, RTG_FIELD(SYMBOL, module)) ? rec->u.SYMBOL.module : NULL;
  int n = snprintf(buf, sizeof buf, "%s", rec->u.SYMBOL.name);
  if (RTG_HAS(rec, RTG_FIELD(SYMBOL, offset)) && rec->u.SYMBOL.offset && n < (int)sizeof buf)
    n += snprintf(buf + n, sizeof buf - (size_t)n, "+0x%llx",
                  (unsigned long long)rec->u.SYMBOL.offset);
  if (mod && *mod && n < (int)sizeof buf) snprintf(buf + n, sizeof buf - (size_t)n, " (%s)", mod);
  *rtg_u64map_put(&p->symbols, rec->u.SYMBOL.addr, 0, NULL) = cv_intern(ctx, buf);
}

int cv_stack_frames(const cv_ctx *ctx, uint32_t proc, uint64_t stack,
                    void (*fn)(void *arg, const char *frame), void *arg) {
  const cv_proc *p = &ctx->procs[proc];
  const uint64_t *pcs = rtg_u64map_get(&p->stacks, stack);
  if (!pcs) return 0;
  /* pcs: addresses separated by commas, hex (0x...) or decimal */
  const char *s = cv_str(ctx, (uint32_t)*pcs);
  int n = 0;
  while (*s) {
    char *end;
    unsigned long long a = strtoull(s, &end, 0);
    if (end == s) break;
    const uint64_t *sym = rtg_u64map_get(&p->symbols, a);
    char buf[40];
    if (sym) {
      fn(arg, cv_str(ctx, (uint32_t)*sym));
    } else {
      snprintf(buf, sizeof buf, "0x%llx", a);
      fn(arg, buf);
    }
    n++;
    s = end;
    while (*s == ',' || *s == ' ') s++;
  }
  return n;
}
