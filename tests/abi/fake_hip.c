/* A stand-in libamdhip64 that reports API calls to a tool exactly as HIP
 * 5.3.1..6.2 does through hipRegisterTracerCallback (facts: ROCm/hipamd
 * rocm-5.3.x and ROCm/clr rocm-6.x hipamd/src/hip_prof_api.h):
 *   - per call, a hip_api_trace_data_t on the stack, NOT initialised
 *     (filled with 0xAB here to catch a tool relying on zeroes):
 *       hip_api_data_t api_data (SIZE bytes: {u64 correlation_id;
 *       u32 phase; union args at 16}), u64 phase_enter_timestamp,
 *       u64 phase_data, phase_enter, phase_exit
 *   - report(3, op, &data) == 0 enables the call; then args are written,
 *     phase_enter(op, &data), the work, phase_exit(op, &data).
 * SIZE and the last op id per release were measured from each release's
 * headers (tests/abi/hip_layouts.sh); they are written here independently of
 * the tracer's table.  The release is picked by RTG_FAKE_HIP_RELEASE:
 * 5.3 (last op 348, 840 bytes), 6.0 (378, 1520), 6.2 (399, 1520), or
 * future (450, 1600: a release the tracer must refuse, not corrupt). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef int (*report_fn)(uint32_t domain, uint32_t op, void *data);
static report_fn report;
static uint32_t last = 399;
static size_t size = 1520;
static const char *last_name = "hipSetValidDevices";

__attribute__((constructor)) static void pick(void) {
  const char *r = getenv("RTG_FAKE_HIP_RELEASE");
  if (!r) return;
  if (!strcmp(r, "5.3")) last = 348, size = 840, last_name = "hipGraphReleaseUserObject";
  if (!strcmp(r, "6.0"))
    last = 378, size = 1520, last_name = "hipGraphExternalSemaphoresWaitNodeSetParams";
  if (!strcmp(r, "future")) last = 450, size = 1600, last_name = "hipFutureCall";
}

/* ids 48, 107, 108, 125 are the same in every release 5.2..6.2 */
enum {
  OP_SYNC = 48,
  OP_LAUNCH = 107,
  OP_MALLOC = 108,
  OP_MEMCPY = 125,
  OP_PEEK = 181,
  OP_SETDEV = 186
};

const char *hipApiName(uint32_t id) {
  switch (id) {
  case OP_SYNC:
    return "hipDeviceSynchronize";
  case OP_LAUNCH:
    return "hipLaunchKernel";
  case OP_MALLOC:
    return "hipMalloc";
  case OP_MEMCPY:
    return "hipMemcpy";
  case OP_PEEK:
    return "hipPeekAtLastError";
  case OP_SETDEV:
    return "hipSetDevice";
  default:
    return id == last ? last_name : "unknown";
  }
}

void hipRegisterTracerCallback(report_fn f) {
  report = f;
}
/* For the test: is a tracer callback registered now? */
int fake_hip_callback_registered(void) {
  return report != NULL;
}
const char *hipKernelNameRefByPtr(const void *f, const void *stream) {
  return "fake_kernel(int)";
}
int hipPeekAtLastError(void) {
  return 0;
}

typedef void (*phase_fn)(uint32_t op, void *data);

/* The spawner: the tail follows api_data at `size`.  REP: the tool's
 * report function, or NULL for the same call with no tool (benchmark). */
#define SPAWN(op, FILL, WORK) SPAWN_REP(report, op, FILL, WORK)
#define SPAWN_REP(REP, op, FILL, WORK)                                                             \
  do {                                                                                             \
    unsigned char td[2048];                                                                        \
    if (fake_hip_fill) memset(td, 0xAB, sizeof td);                                                \
    report_fn rep_ = REP;                                                                          \
    int on = rep_ && rep_(3, op, td) == 0;                                                         \
    phase_fn enter, exit_;                                                                         \
    if (on) {                                                                                      \
      memcpy(&enter, td + size + 16, sizeof enter);                                                \
      unsigned char *args = td + 16;                                                               \
      FILL;                                                                                        \
      if (enter) enter(op, td);                                                                    \
    }                                                                                              \
    WORK;                                                                                          \
    if (on) {                                                                                      \
      memcpy(&exit_, td + size + 24, sizeof exit_);                                                \
      if (exit_) exit_(op, td);                                                                    \
    }                                                                                              \
    (void)args_unused;                                                                             \
  } while (0)

static int args_unused;
/* 0xAB-fill the trace data (catches a tool reading what HIP leaves
 * uninitialised); the benchmark turns it off, as HIP does not fill it */
int fake_hip_fill = 1;

int fake_hipDeviceSynchronize(void) {
  SPAWN(OP_SYNC, (void)args, );
  return 0;
}

int fake_hipMalloc(void **p, size_t n) {
  /* {void **ptr; void *ptr__val; size_t size} */
  SPAWN(OP_MALLOC, (memcpy(args, &p, 8), memcpy(args + 16, &n, 8)), *p = malloc(n));
  return 0;
}

int fake_hipMemcpy(void *dst, const void *src, size_t n, int kind) {
  /* {void *dst; const void *src; size_t sizeBytes; hipMemcpyKind kind},
   * and a nested call, as HIP's own implementation sometimes makes */
  SPAWN(OP_MEMCPY,
        (memcpy(args, &dst, 8), memcpy(args + 8, &src, 8), memcpy(args + 16, &n, 8),
         memcpy(args + 24, &kind, 4)),
        (memcpy(dst, src, n), fake_hipDeviceSynchronize()));
  return 0;
}

int fake_hipLaunchKernel(const void *f, uint32_t gx, uint32_t bx, void *stream) {
  /* {const void *function_address; dim3 numBlocks; dim3 dimBlocks; void **args;
   *  void *args__val; size_t sharedMemBytes; hipStream_t stream} */
  uint32_t grid[3] = {gx, 1, 1}, block[3] = {bx, 1, 1};
  size_t shmem = 0;
  SPAWN(OP_LAUNCH,
        (memcpy(args, &f, 8), memcpy(args + 8, grid, 12), memcpy(args + 20, block, 12),
         memcpy(args + 48, &shmem, 8), memcpy(args + 56, &stream, 8)),
        (void)0);
  return 0;
}

/* For scripts/bench-hip.sh: a cheap call with one decoded argument, the
 * same call as HIP makes it with no tool, and a second cheap call to filter
 * out. */
int fake_hipSetDevice(int dev) {
  SPAWN(OP_SETDEV, memcpy(args, &dev, 4), (void)0);
  return 0;
}
int fake_hipSetDevice_notool(int dev) {
  SPAWN_REP(NULL, OP_SETDEV, memcpy(args, &dev, 4), (void)0);
  return 0;
}
int fake_hipPeekAtLastError(void) {
  SPAWN(OP_PEEK, (void)args, (void)0);
  return 0;
}

/* The application's part. */
void fake_hip_app(void) {
  void *d = NULL;
  char h[64] = "x";
  fake_hipMalloc(&d, 4096);
  fake_hipMemcpy(d, h, sizeof h, 1);
  fake_hipLaunchKernel((const void *)0x1000, 2, 64, (void *)0x1234);
  fake_hipDeviceSynchronize();
  free(d);
}
