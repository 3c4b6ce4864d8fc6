/* ABI test of the ROCm 6.2+ path: HipDispatchTable and
 * HipCompilerDispatchTable handed over through rocprofiler-register.
 * tests/abi/fake_hip62.c is a stand-in HIP 6.2 (6.2.0 table layout) that
 * passes its tables to `rocprofiler_set_api_table` of the preloaded
 * rtg_register.so (loaded RTLD_GLOBAL here, as LD_PRELOAD would) at its
 * first call, then calls through them.  The HIP side of the tracer runs
 * with the tracer's own core (tests/abi/tracer_core.c); each case in a child.
 *   first:    tables before the tracer's init (the 6.2 order): every call
 *             after init traced once, names, arguments from registers and
 *             stack, kernel names, return values, correlation ids current
 *             during the call, filters (a filtered slot keeps HIP's own
 *             pointer), the 5.3.1+ callback never registered, and every
 *             slot back to HIP's pointer after fini.
 *   late:     init first (the 5.3.1+ callback path starts, kept with
 *             RTG_HIP_PATH=callback), tables after: left alone, every call
 *             traced once by the callback path.
 *   filtered: RTG_HIP_API_FILTER=Launch: only launches wrapped. */
#define _GNU_SOURCE
#include "check.h"
#include "core/thread_state.h"
#include "rtg/record.h"
#include "tracer_core.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[PATH_MAX];
static uint64_t probed[8];
static int nprobed;

static void probe(void) {
  if (nprobed < 8) probed[nprobed++] = rtg_corr_get();
}

static void *load(const char *rel) {
  char lib[PATH_MAX + 64];
  snprintf(lib, sizeof lib, "%s/../%s", dir, rel);
  void *h = dlopen(lib, RTLD_NOW | RTLD_GLOBAL);
  if (!h) {
    fprintf(stderr, "cannot load %s: %s\n", lib, dlerror());
    _exit(3);
  }
  return h;
}

/* The child: exit status 0, or which check failed. */
static void child(const char *mode, const char *out) {
  setenv("RTG_FILENAME", out, 1);
  setenv("RTG_HIP_API_ARGS", strcmp(mode, "late") ? "1" : "0", 1);
  setenv("RTG_HIP_API_FILTER_OUT", "hipFree", 1);
  if (!strcmp(mode, "filtered")) setenv("RTG_HIP_API_FILTER", "Launch", 1);
  if (!strcmp(mode, "late")) setenv("RTG_HIP_PATH", "callback", 1);
  load("rtg_register.so");
  void *h = load("abi/hip62/libamdhip64.so.6");
  int (*app)(void), (*last_error)(void), (*is_orig)(int), (*nslots)(void);
  *(void **)&app = dlsym(h, "fake62_app");
  *(void **)&last_error = dlsym(h, "hipGetLastError");
  *(void **)&is_orig = dlsym(h, "fake62_slot_is_original");
  *(void **)&nslots = dlsym(h, "fake62_slots");
  int *callbacks = dlsym(h, "fake62_tracer_callbacks");
  void (**probe_ptr)(void) = dlsym(h, "fake62_probe");
  *probe_ptr = probe;
  if (strcmp(mode, "late")) last_error(); /* HIP's first call: tables handed over, untraced */
  rtg_test_tracer_start();
  if (app() != 0) _exit(4);
  if (rtg_corr_get() != 0) _exit(5); /* restored after each call */
  if (!strcmp(mode, "late")) {
    if (*callbacks != 1) _exit(6);
    if (is_orig(215) != 1) _exit(7); /* hipMalloc: left alone */
  } else {
    if (*callbacks != 0) _exit(6);                           /* tables active: no callback path */
    if (is_orig(215) != !strcmp(mode, "filtered")) _exit(7); /* hipMalloc */
    if (is_orig(214) != 0) _exit(8);                         /* hipLaunchKernel */
    if (is_orig(90) != 1) _exit(9);                          /* hipFree: filtered out */
  }
  rtg_test_tracer_stop();
  for (int i = 0; i < nslots(); i++)
    if (!is_orig(i)) _exit(10); /* everything restored */
  /* the probe ran inside each hipDeviceSynchronize: report its ids */
  FILE *f = fopen("probe.txt", "w");
  for (int i = 0; f && i < nprobed; i++) fprintf(f, "%llu\n", (unsigned long long)probed[i]);
  if (f) fclose(f);
  _exit(0);
}

typedef struct call {
  char text[512];
  uint64_t corr;
} call;

static int read_calls(const char *out, call *calls, int max) {
  char cmd[PATH_MAX + 64], line[4096];
  snprintf(cmd, sizeof cmd, "cat %s.* 2>/dev/null", out);
  FILE *f = popen(cmd, "r");
  int n = 0;
  while (f && fgets(line, sizeof line, f) && n < max) {
    rtg_record r;
    if (rtg_record_parse(line, strcspn(line, "\n"), &r, NULL) != RTG_KIND_HIP_API) continue;
    char *t = calls[n].text;
    snprintf(t, 512, "%s(%s)%s%s%s ret=%s", r.u.HIP_API.func,
             RTG_HAS(&r, RTG_FIELD(HIP_API, args)) ? r.u.HIP_API.args : "-",
             RTG_HAS(&r, RTG_FIELD(HIP_API, kernel)) ? " [" : "",
             RTG_HAS(&r, RTG_FIELD(HIP_API, kernel)) ? r.u.HIP_API.kernel : "",
             RTG_HAS(&r, RTG_FIELD(HIP_API, kernel)) ? "]" : "", r.u.HIP_API.ret);
    /* pointer values differ per run: 0x... -> P */
    char *p;
    while ((p = strstr(t, "=0x"))) {
      char *e = p + 3;
      while ((*e >= '0' && *e <= '9') || (*e >= 'a' && *e <= 'f')) e++;
      memmove(p + 2, e, strlen(e) + 1);
      p[1] = 'P';
    }
    calls[n].corr = RTG_HAS(&r, RTG_FIELD(HIP_API, corr)) ? r.u.HIP_API.corr : 0;
    n++;
  }
  if (f) pclose(f);
  return n;
}

static void run(const char *mode, const char *out) {
  pid_t pid = fork();
  if (pid == 0) child(mode, out);
  int st = 0;
  waitpid(pid, &st, 0);
  if (!WIFEXITED(st) || WEXITSTATUS(st)) fprintf(stderr, "%s: child status %#x\n", mode, st);
  CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

static void check_first(void) {
  char out[64];
  snprintf(out, sizeof out, "first_%d", (int)getpid());
  run("first", out);
  call c[32];
  int n = read_calls(out, c, 32);
  static const char *const want[] = {
      "hipMalloc(ptr=P, size=4096) ret=0",
      "hipDeviceSynchronize() ret=0", /* nested in hipMemcpy */
      "hipMemcpy(dst=P, src=P, size=64, kind=HostToDevice) ret=0",
      "hipLaunchKernel(func=P, grid={2,3,4}, block={64,1,1}, shmem=128, stream=P) "
      "[fake_kernel(int)] ret=0",
      "hipModuleLaunchKernel(func=P, grid={8,1,1}, block={256,1,1}, shmem=0, stream=P) "
      "[module_kernel] ret=0",
      "hipExtModuleLaunchKernel(func=P, global={1024,2,3}, local={64,2,1}, shmem=256, stream=P) "
      "[module_kernel] ret=0",
      "hipMemset3D(-) ret=0",
      "hipTexRefSetMipmapLevelClamp(-) ret=0",
      "hipCreateChannelDesc(-) ret=?", /* returns a struct, not hipError_t */
      "__hipPushCallConfiguration(-) ret=0",
      "hipSetValidDevices(-) ret=98",
      "hipDeviceSynchronize() ret=0",
  };
  int nw = (int)(sizeof want / sizeof *want);
  CHECK_U64(n, nw);
  for (int i = 0; i < n && i < nw; i++) CHECK_STR(c[i].text, want[i]);
  /* correlation ids: all distinct and nonzero; the nested call's differs
   * from its parent's; each current inside its own call */
  for (int i = 0; i < n; i++) {
    CHECK(c[i].corr != 0);
    for (int j = 0; j < i; j++) CHECK(c[i].corr != c[j].corr);
  }
  FILE *f = fopen("probe.txt", "r");
  unsigned long long a = 0, b = 0;
  CHECK(f && fscanf(f, "%llu %llu", &a, &b) == 2);
  if (f) fclose(f);
  if (n == nw) {
    CHECK_U64(a, c[1].corr);
    CHECK_U64(b, c[11].corr);
  }
}

static void check_late(void) {
  char out[64];
  snprintf(out, sizeof out, "late_%d", (int)getpid());
  run("late", out);
  call c[32];
  int n = read_calls(out, c, 32);
  /* the 4 ops fake_hip62.c reports by callback, each once */
  static const char *const want[] = {"hipMalloc(-) ret=0", "hipDeviceSynchronize(-) ret=0",
                                     "hipMemcpy(-) ret=0", "hipLaunchKernel(-) ret=0",
                                     "hipDeviceSynchronize(-) ret=0"};
  CHECK_U64(n, 5);
  for (int i = 0; i < n && i < 5; i++) CHECK_STR(c[i].text, want[i]);
}

static void check_filtered(void) {
  char out[64];
  snprintf(out, sizeof out, "filtered_%d", (int)getpid());
  run("filtered", out);
  call c[32];
  int n = read_calls(out, c, 32);
  CHECK_U64(n, 3);
  for (int i = 0; i < n; i++) CHECK(strstr(c[i].text, "Launch") != NULL);
}

int main(void) {
  char exe[PATH_MAX];
  ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
  exe[k > 0 ? k : 0] = 0;
  snprintf(dir, sizeof dir, "%s", exe);
  char *s = strrchr(dir, '/');
  if (s) *s = 0;
  check_first();
  check_late();
  check_filtered();
  return check_done(__FILE__);
}
