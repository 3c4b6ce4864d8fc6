/* A stand-in libamdhip64 of ROCm 6.2 that hands its dispatch tables to a
 * tool as HIP 6.2 does through rocprofiler-register (facts: ROCm/clr
 * rocm-6.2.0 hipamd/src/hip_api_trace.cpp and hip_table_interface.cpp,
 * ROCm/rocprofiler-register rocprofiler_register.cpp):
 *   - HipDispatchTable = {size_t size; 452 function pointers} (step 3), the
 *     slot numbers below from HIP_ENFORCE_ABI in hip_api_trace.cpp, written
 *     here independently of the tracer's generated name list;
 *     HipCompilerDispatchTable = {size; 9 pointers};
 *   - at the first HIP call each table is built and passed to
 *     rocprofiler_set_api_table(name, version, instance, &table, 1), which
 *     rocprofiler-register finds as a global symbol (the preloaded tool);
 *   - every public hip* function then calls table->X_fn(...), reading the
 *     pointer on every call.
 * It also exports hipRegisterTracerCallback and reports through it like 6.2
 * (4 ops), so a test can see that no call is traced twice.
 * The implementations check their arguments, which exercises the tracer's
 * generic trampolines with stack arguments, structs by value, floats and a
 * struct returned in memory; a wrong argument makes the call return 1. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <dlfcn.h>

#define NSLOTS 452
#define NCOMPILER 9
enum {
  S_hipApiName = 0,
  S_hipDeviceSynchronize = 66,
  S_hipFree = 90,
  S_hipGetLastError = 109,
  S_hipKernelNameRef = 208,
  S_hipKernelNameRefByPtr = 209,
  S_hipLaunchKernel = 214,
  S_hipMalloc = 215,
  S_hipMemcpy = 259,
  S_hipMemset3D = 291,
  S_hipModuleLaunchKernel = 308,
  S_hipPeekAtLastError = 320,
  S_hipSetDevice = 327,
  S_hipTexRefSetMipmapLevelClamp = 379,
  S_hipCreateChannelDesc = 387,
  S_hipExtModuleLaunchKernel = 388,
  S_hipSetValidDevices = 445,
  S_hipArrayCreate = 3 /* left NULL: a retired member */
};
enum { C_push = 1, C_pop = 0 };

typedef struct {
  uint32_t x, y, z;
} dim3;
typedef struct {
  void *ptr;
  size_t pitch, xsize, ysize;
} pitched;
typedef struct {
  size_t w, h, d;
} extent;
typedef struct {
  int x, y, z, w;
  int f;
} chan_desc;

static struct {
  uint64_t size;
  void *fn[NSLOTS];
} table;
static struct {
  uint64_t size;
  void *fn[NCOMPILER];
} ctable;
static void *impl[NSLOTS]; /* what HIP itself put in each slot */
static int registered;
int fake62_tracer_callbacks; /* hipRegisterTracerCallback calls, for the test */
/* called inside hipDeviceSynchronize: the test reads the thread's current
 * correlation id there */
void (*fake62_probe)(void);

typedef int (*set_api_table_fn)(const char *, uint64_t, uint64_t, void **, uint64_t);
typedef int (*report_fn)(uint32_t domain, uint32_t op, void *data);
typedef void (*phase_fn)(uint32_t op, void *data);
static report_fn report;

/* 6.2's callback path for 4 ops (hip_api_data_t is 1520 bytes; no args) */
static void cb_call(uint32_t op, int phase_exit, unsigned char *td, int *on) {
  phase_fn f;
  if (!phase_exit) {
    memset(td, 0xAB, 1600);
    *on = report && report(3, op, td) == 0;
    if (!*on) return;
    memset(td + 16, 0, 64); /* HIP fills the arguments; none here */
    memcpy(&f, td + 1520 + 16, sizeof f);
  } else {
    if (!*on) return;
    memcpy(&f, td + 1520 + 24, sizeof f);
  }
  if (f) f(op, td);
}
#define CB(op, BODY)                                                                               \
  do {                                                                                             \
    unsigned char td[1600];                                                                        \
    int on = 0;                                                                                    \
    cb_call(op, 0, td, &on);                                                                       \
    BODY;                                                                                          \
    cb_call(op, 1, td, &on);                                                                       \
  } while (0)

/* ----------------------------------------------------------- the runtime */

static int unimplemented(void) {
  return 98;
}
static const char *i_api_name(uint32_t id) {
  switch (id) {
  case 48:
    return "hipDeviceSynchronize";
  case 107:
    return "hipLaunchKernel";
  case 108:
    return "hipMalloc";
  case 125:
    return "hipMemcpy";
  case 399:
    return "hipSetValidDevices";
  default:
    return "unknown";
  }
}
static int i_sync(void) {
  CB(48, (fake62_probe ? fake62_probe() : (void)0));
  return 0;
}
static int i_malloc(void **p, size_t n) {
  int r = 0;
  CB(108, (*p = malloc(n), r = *p ? 0 : 2));
  return r;
}
static int i_free(void *p) {
  free(p);
  return 0;
}
int hipDeviceSynchronize(void);
static int i_memcpy(void *d, const void *s, size_t n, int kind) {
  /* HIP's implementation calling its own public API: a nested traced call */
  CB(125, (memcpy(d, s, n), hipDeviceSynchronize()));
  return kind == 1 ? 0 : 1;
}
static int i_launch(const void *f, dim3 g, dim3 b, void **args, size_t shmem, void *stream) {
  int ok = 0;
  CB(107, ok = f == (void *)0x1000 && g.x == 2 && g.y == 3 && g.z == 4 && b.x == 64 && b.y == 1 &&
               b.z == 1 && args == (void **)0x2000 && shmem == 128 && stream == (void *)0x1234);
  return ok ? 0 : 1;
}
static int i_module_launch(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                           unsigned bz, unsigned shmem, void *stream, void **params, void **extra) {
  return f == (void *)0x3000 && gx == 8 && gy == 1 && gz == 1 && bx == 256 && by == 1 && bz == 1 &&
                 shmem == 0 && stream == (void *)0x1234 && params == (void **)0x11 &&
                 extra == (void **)0x22
             ? 0
             : 1;
}
static int i_ext_module_launch(void *f, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t lx,
                               uint32_t ly, uint32_t lz, size_t shmem, void *stream, void **params,
                               void **extra, void *start, void *stop, uint32_t flags) {
  return f == (void *)0x3000 && gx == 1024 && gy == 2 && gz == 3 && lx == 64 && ly == 2 &&
                 lz == 1 && shmem == 256 && stream == (void *)0x1234 && params == (void **)0x11 &&
                 extra == (void **)0x22 && start == (void *)0x33 && stop == (void *)0x44 &&
                 flags == 7
             ? 0
             : 1;
}
static int i_memset3d(pitched p, int value, extent e) {
  return p.ptr == (void *)0x5000 && p.pitch == 512 && p.xsize == 500 && p.ysize == 20 &&
                 value == -1 && e.w == 500 && e.h == 20 && e.d == 3
             ? 0
             : 1;
}
static int i_clamp(void *tex, float lo, float hi) {
  return tex == (void *)0x6000 && lo == 0.5f && hi == 7.25f ? 0 : 1;
}
static chan_desc i_channel_desc(int x, int y, int z, int w, int f) {
  chan_desc c = {x, y, z, w, f};
  return c;
}
static const char *i_name_by_ptr(const void *f, const void *stream) {
  return f == (void *)0x1000 ? "fake_kernel(int)" : NULL;
}
static const char *i_name_ref(const void *f) {
  return f == (void *)0x3000 ? "module_kernel" : NULL;
}
static int i_last_error(void) {
  return 0;
}
static int i_set_device(int d) {
  return d == 0 ? 0 : 1;
}
static int i_push(dim3 g, dim3 b, size_t shmem, void *stream) {
  return g.x == 2 && b.x == 64 && shmem == 0 ? 0 : 1;
}
static int i_pop(dim3 *g, dim3 *b, size_t *shmem, void **stream) {
  return 0;
}

/* ------------------------------------------ registration (at first call) */

static void hand_over(const char *name, void *t) {
  /* as rocprofiler-register: the tool's entry point as a global symbol */
  set_api_table_fn set;
  *(void **)&set = dlsym(RTLD_DEFAULT, "rocprofiler_set_api_table");
  void *tables[1] = {t};
  if (set) set(name, 60200, 0, tables, 1);
}

static void init_tables(void) {
  if (registered) return;
  registered = 1;
  table.size = sizeof table;
  for (int i = 0; i < NSLOTS; i++) table.fn[i] = (void *)unimplemented;
  table.fn[S_hipArrayCreate] = NULL;
#define SET(s, f) table.fn[s] = (void *)(f)
  SET(S_hipApiName, i_api_name);
  SET(S_hipDeviceSynchronize, i_sync);
  SET(S_hipFree, i_free);
  SET(S_hipGetLastError, i_last_error);
  SET(S_hipPeekAtLastError, i_last_error);
  SET(S_hipSetDevice, i_set_device);
  SET(S_hipKernelNameRef, i_name_ref);
  SET(S_hipKernelNameRefByPtr, i_name_by_ptr);
  SET(S_hipLaunchKernel, i_launch);
  SET(S_hipMalloc, i_malloc);
  SET(S_hipMemcpy, i_memcpy);
  SET(S_hipMemset3D, i_memset3d);
  SET(S_hipModuleLaunchKernel, i_module_launch);
  SET(S_hipTexRefSetMipmapLevelClamp, i_clamp);
  SET(S_hipCreateChannelDesc, i_channel_desc);
  SET(S_hipExtModuleLaunchKernel, i_ext_module_launch);
  memcpy(impl, table.fn, sizeof impl);
  ctable.size = sizeof ctable;
  for (int i = 0; i < NCOMPILER; i++) ctable.fn[i] = (void *)unimplemented;
  ctable.fn[C_push] = (void *)i_push;
  ctable.fn[C_pop] = (void *)i_pop;
  hand_over("hip_compiler", &ctable);
  hand_over("hip", &table);
}

/* For the test: does slot i hold HIP's own function (not a wrapper)?
 * -1 before the tables exist. */
int fake62_slot_is_original(int i) {
  return registered ? table.fn[i] == impl[i] : -1;
}
int fake62_slots(void) {
  return NSLOTS;
}

/* ------------------------------------------------------ the public API */

#define T(slot, type) (init_tables(), (type)table.fn[slot])
const char *hipApiName(uint32_t id) {
  return i_api_name(id);
} /* pure lookup, as in HIP */
void hipRegisterTracerCallback(report_fn f) {
  report = f;
  fake62_tracer_callbacks++;
}
int hipDeviceSynchronize(void) {
  return T(S_hipDeviceSynchronize, int (*)(void))();
}
int hipMalloc(void **p, size_t n) {
  return T(S_hipMalloc, int (*)(void **, size_t))(p, n);
}
int hipFree(void *p) {
  return T(S_hipFree, int (*)(void *))(p);
}
int hipGetLastError(void) {
  return T(S_hipGetLastError, int (*)(void))();
}
int hipPeekAtLastError(void) {
  return T(S_hipPeekAtLastError, int (*)(void))();
}
int hipMemcpy(void *d, const void *s, size_t n, int k) {
  return T(S_hipMemcpy, int (*)(void *, const void *, size_t, int))(d, s, n, k);
}
int hipLaunchKernel(const void *f, dim3 g, dim3 b, void **a, size_t sh, void *st) {
  return T(S_hipLaunchKernel,
           int (*)(const void *, dim3, dim3, void **, size_t, void *))(f, g, b, a, sh, st);
}
int hipModuleLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                          unsigned bz, unsigned sh, void *st, void **p, void **e) {
  return T(S_hipModuleLaunchKernel,
           int (*)(void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                   void *, void **, void **))(f, gx, gy, gz, bx, by, bz, sh, st, p, e);
}
int hipExtModuleLaunchKernel(void *f, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t lx,
                             uint32_t ly, uint32_t lz, size_t sh, void *st, void **p, void **e,
                             void *a, void *b, uint32_t fl) {
  return T(S_hipExtModuleLaunchKernel,
           int (*)(void *, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, size_t,
                   void *, void **, void **, void *, void *, uint32_t))(f, gx, gy, gz, lx, ly, lz,
                                                                        sh, st, p, e, a, b, fl);
}
int hipMemset3D(pitched p, int v, extent e) {
  return T(S_hipMemset3D, int (*)(pitched, int, extent))(p, v, e);
}
int hipTexRefSetMipmapLevelClamp(void *t, float lo, float hi) {
  return T(S_hipTexRefSetMipmapLevelClamp, int (*)(void *, float, float))(t, lo, hi);
}
chan_desc hipCreateChannelDesc(int x, int y, int z, int w, int f) {
  return T(S_hipCreateChannelDesc, chan_desc(*)(int, int, int, int, int))(x, y, z, w, f);
}
int __hipPushCallConfiguration(dim3 g, dim3 b, size_t sh, void *st) {
  init_tables();
  return ((int (*)(dim3, dim3, size_t, void *))ctable.fn[C_push])(g, b, sh, st);
}
int hipSetDevice(int d) {
  return T(S_hipSetDevice, int (*)(int))(d);
}
/* For scripts/bench-hip.sh: hipSetDevice as it runs with no tool (HIP's
 * own pointer, called the same way) */
int fake62_hipSetDevice_notool(int d) {
  init_tables();
  return ((int (*)(int))impl[S_hipSetDevice])(d);
}
int fake62_unimplemented(void) {
  return T(S_hipSetValidDevices, int (*)(void))();
}

/* The application: every call checked; returns the number of wrong results. */
int fake62_app(void) {
  int bad = 0;
  void *d = NULL;
  char h[64] = "x";
  bad += hipMalloc(&d, 4096) != 0;
  bad += hipMemcpy(d, h, sizeof h, 1) != 0;
  bad += hipLaunchKernel((const void *)0x1000, (dim3){2, 3, 4}, (dim3){64, 1, 1}, (void **)0x2000,
                         128, (void *)0x1234) != 0;
  bad += hipModuleLaunchKernel((void *)0x3000, 8, 1, 1, 256, 1, 1, 0, (void *)0x1234, (void **)0x11,
                               (void **)0x22) != 0;
  bad += hipExtModuleLaunchKernel((void *)0x3000, 1024, 2, 3, 64, 2, 1, 256, (void *)0x1234,
                                  (void **)0x11, (void **)0x22, (void *)0x33, (void *)0x44, 7) != 0;
  bad += hipMemset3D((pitched){(void *)0x5000, 512, 500, 20}, -1, (extent){500, 20, 3}) != 0;
  bad += hipTexRefSetMipmapLevelClamp((void *)0x6000, 0.5f, 7.25f) != 0;
  chan_desc c = hipCreateChannelDesc(8, 16, 24, 32, 2);
  bad += !(c.x == 8 && c.y == 16 && c.z == 24 && c.w == 32 && c.f == 2);
  bad += __hipPushCallConfiguration((dim3){2, 1, 1}, (dim3){64, 1, 1}, 0, NULL) != 0;
  bad += fake62_unimplemented() != 98;
  bad += hipDeviceSynchronize() != 0;
  bad += hipFree(d) != 0;
  return bad;
}
