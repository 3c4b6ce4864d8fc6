/* A stand-in libroctx64 reporting markers as each release does (facts:
 * ROCm/roctracer src/roctx/roctx.cpp, roctx_intercept.cpp at rocm-5.2.3 and
 * rocm-6.2.0; ROCm/rocprofiler-sdk rocprofiler-sdk-roctx/api_trace.h):
 *   built with -DFAKE_ROCTX_52: RegisterApiCallback(op, cb, arg) per op;
 *                         cb(6, op, &roctx_api_data_t, arg) before the work
 *   built without:        roctxRegisterTracerCallback(int (*)(6, op, data))
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
void roctxRegisterTracerCallback(tracer_cb f) { tracer = f; }
#endif

static void report(uint32_t op, const char *message, uint64_t id) {
  data_t d = {message, id};
  if (mode52 && cbs[op]) cbs[op](6, op, &d, cb_args[op]);
  if (!mode52 && tracer) tracer(6, op, &d);
}

void roctxMarkA(const char *m) { report(0, m, 0); }
int roctxRangePushA(const char *m) { report(1, m, 0); return level++; }
int roctxRangePop(void) { report(2, NULL, 0); return level ? --level : -1; }
uint64_t roctxRangeStartA(const char *m) { uint64_t id = next_id++; report(3, m, id); return id; }
void roctxRangeStop(uint64_t id) { report(4, NULL, id); }
