/* ROCTx on ROCm 6.2+: the roctx core table rocprofiler-sdk-roctx hands to
 * rocprofiler-register (facts: ROCm/rocprofiler-sdk source/include/
 * rocprofiler-sdk-roctx/api_trace.h, source/lib/rocprofiler-sdk-roctx/
 * roctx.cpp): "roctx" with three tables, core first:
 *   {uint64 size; MarkA; RangePushA; RangePop; RangeStartA; RangeStop;
 *    GetThreadId}
 * The signatures are known, so plain C wrappers replace the five marker
 * entries; each reports, then calls roctx's function (RangeStartA reports
 * after, since the id is its return value). */
#include "roctx.h"

#include <stddef.h>
#include <string.h>

typedef struct core_table {
  uint64_t size;
  void (*mark)(const char *);
  int (*push)(const char *);
  int (*pop)(void);
  uint64_t (*start)(const char *);
  void (*stop)(uint64_t);
} core_table;

static core_table orig;
static core_table *wrapped;
static volatile int on;

static void w_mark(const char *m) {
  if (on) rtg_roctx_mark(m);
  orig.mark(m);
}
static int w_push(const char *m) {
  if (on) rtg_roctx_push(m);
  return orig.push(m);
}
static int w_pop(void) {
  if (on) rtg_roctx_pop();
  return orig.pop();
}
static uint64_t w_start(const char *m) {
  uint64_t id = orig.start(m);
  if (on) rtg_roctx_start(m, id);
  return id;
}
static void w_stop(uint64_t id) {
  if (on) rtg_roctx_stop(id);
  orig.stop(id);
}

bool rtg_roctx_table_wrap(void *table) {
  core_table *t = table;
  if (wrapped) return wrapped == t; /* one roctx library per process */
  if (!t || t->size < offsetof(core_table, stop) + sizeof t->stop) return false;
  if (!t->mark || !t->push || !t->pop || !t->start || !t->stop) return false;
  orig = *t;
  on = 1;
  wrapped = t;
  /* aligned pointer stores: a concurrent caller sees the old or new one */
  __atomic_store_n(&t->mark, w_mark, __ATOMIC_RELEASE);
  __atomic_store_n(&t->push, w_push, __ATOMIC_RELEASE);
  __atomic_store_n(&t->pop, w_pop, __ATOMIC_RELEASE);
  __atomic_store_n(&t->start, w_start, __ATOMIC_RELEASE);
  __atomic_store_n(&t->stop, w_stop, __ATOMIC_RELEASE);
  return true;
}

rtg_path_start rtg_roctx_table_start(void *unused) {
  (void)unused;
  if (!wrapped) return RTG_PATH_ABSENT;
  rtg_log(1, "ROCTx: roctx core table via rocprofiler-register");
  return RTG_PATH_TAKEN;
}

void rtg_roctx_table_stop(void) {
  on = 0;
}
