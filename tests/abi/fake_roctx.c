/* A stand-in libroctx64 reporting markers as each release does (facts:
 * ROCm/roctracer src/roctx/roctx.cpp, roctx_intercept.cpp at rocm-5.2.3 and
 * rocm-6.2.0; ROCm/rocprofiler-sdk rocprofiler-sdk-roctx/api_trace.h):
 *   built with -DFAKE_ROCTX_52: RegisterApiCallback(op, cb, arg) per op;
 *                         cb(6, op, &roctx_api_data_t, arg) before the work
 *   built without:        roctxRegisterTracerCallback(int (*)(6, op, data))
 *   -DFAKE_ROCTX_62:      also, as rocprofiler-sdk-roctx of 6.2, the public
 *                         functions call through roctxCoreApiTable_t
 *                         {u64 size; MarkA, RangePushA, RangePop,
 *                         RangeStartA, RangeStop, GetThreadId}, handed with
 *                         the control and name tables to
 *                         rocprofiler_set_api_table("roctx", ..., 3) at the
 *                         first call (the tracer callback is kept so a test
 *                         sees that nothing is reported twice)
 * roctx_api_data_t = {union {struct {const char *message; uint64_t id;}}}.
 * Ops: MarkA 0, RangePushA 1, RangePop 2, RangeStartA 3, RangeStop 4.
 * Each build exports only its release's registration function. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef void (*legacy_cb)(uint32_t domain, uint32_t op, const void *data, void *arg);
typedef int (*tracer_cb)(uint32_t domain, uint32_t op, void *data);
static legacy_cb cbs[5];
static void *cb_args[5];
static tracer_cb tracer;
#ifdef FAKE_ROCTX_52
static const int mode52 = 1;
#else
static const int mode52 = 0;
#endif
static uint64_t next_id = 1;
static __thread int level;

typedef struct {
  const char *message;
  uint64_t id;
} data_t;

#ifdef FAKE_ROCTX_52
int RegisterApiCallback(uint32_t op, void *cb, void *arg) {
  if (op >= 5) return 0;
  cbs[op] = (legacy_cb)cb;
  cb_args[op] = arg;
  return 1;
}

#else
void roctxRegisterTracerCallback(tracer_cb f) {
  tracer = f;
}
#endif

static void report(uint32_t op, const char *message, uint64_t id) {
  data_t d = {message, id};
  if (mode52 && cbs[op]) cbs[op](6, op, &d, cb_args[op]);
  if (!mode52 && tracer) tracer(6, op, &d);
}

/* 6.2: the implementations sit behind the core table, not exported */
#ifdef FAKE_ROCTX_62
#define API(type, name) static type impl_##name
#else
#define API(type, name) type name
#endif

API(void, roctxMarkA)(const char *m) {
  report(0, m, 0);
}
API(int, roctxRangePushA)(const char *m) {
  report(1, m, 0);
  return level++;
}
API(int, roctxRangePop)(void) {
  report(2, NULL, 0);
  return level ? --level : -1;
}
API(uint64_t, roctxRangeStartA)(const char *m) {
  uint64_t id = next_id++;
  report(3, m, id);
  return id;
}
API(void, roctxRangeStop)(uint64_t id) {
  report(4, NULL, id);
}

#ifdef FAKE_ROCTX_62
#include <dlfcn.h>
static int get_tid(uint64_t *t) {
  *t = 1;
  return 0;
}
static struct {
  uint64_t size;
  void (*mark)(const char *);
  int (*push)(const char *);
  int (*pop)(void);
  uint64_t (*start)(const char *);
  void (*stop)(uint64_t);
  int (*tid)(uint64_t *);
} core;
static struct {
  uint64_t size;
  void *fn[2];
} control;
static struct {
  uint64_t size;
  void *fn[4];
} names;

static void init_tables(void) {
  if (core.size) return;
  core.size = sizeof core;
  core.mark = impl_roctxMarkA;
  core.push = impl_roctxRangePushA;
  core.pop = impl_roctxRangePop;
  core.start = impl_roctxRangeStartA;
  core.stop = impl_roctxRangeStop;
  core.tid = get_tid;
  control.size = sizeof control;
  names.size = sizeof names;
  int (*set)(const char *, uint64_t, uint64_t, void **, uint64_t);
  *(void **)&set = dlsym(RTLD_DEFAULT, "rocprofiler_set_api_table");
  void *tables[3] = {&core, &control, &names};
  if (set) set("roctx", 60200, 0, tables, 3);
}

void roctxMarkA(const char *m) {
  init_tables();
  core.mark(m);
}
int roctxRangePushA(const char *m) {
  init_tables();
  return core.push(m);
}
int roctxRangePop(void) {
  init_tables();
  return core.pop();
}
uint64_t roctxRangeStartA(const char *m) {
  init_tables();
  return core.start(m);
}
void roctxRangeStop(uint64_t id) {
  init_tables();
  core.stop(id);
}
#endif
