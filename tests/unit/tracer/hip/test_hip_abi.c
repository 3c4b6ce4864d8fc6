/* ABI test of the HIP 5.3.1+ path (hipRegisterTracerCallback) and of the
 * argument decoding, against tests/abi/fake_hip.c, which calls the tracer
 * exactly as HIP 5.3, 6.0 and 6.2 do (trace data layouts measured from those
 * releases' headers).  Each release runs in a child process with the
 * tracer's own core (tests/abi/tracer_core.c); the parent checks the records.
 * A release the tracer does not know must give no records and no crash.
 * The layouts are checked with the callback kept (RTG_HIP_PATH=callback);
 * by default the callback traces only the call in progress when the tracer
 * starts and is then removed (the hand-over to the GOT, which cannot see
 * the fake's calls to itself): one record, and no callback left. */
#define _GNU_SOURCE
#include "check.h"
#include "rtg/record.h"
#include "tracer_core.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[PATH_MAX];

static void run(const char *release, const char *out, const char *path) {
  pid_t pid = fork();
  if (pid == 0) {
    char lib[PATH_MAX + 64];
    if (path) setenv("RTG_HIP_PATH", path, 1);
    setenv("RTG_FAKE_HIP_RELEASE", release, 1);
    setenv("RTG_FILENAME", out, 1);
    setenv("RTG_HIP_API_ARGS", "1", 1);
    setenv("RTG_HIP_API_FILTER_OUT", "hipDeviceSynchronize", 1);
    snprintf(lib, sizeof lib, "%s/../abi/libamdhip64.so.6", dir);
    void *h = dlopen(lib, RTLD_NOW | RTLD_GLOBAL);
    if (!h) {
      fprintf(stderr, "cannot load %s: %s\n", lib, dlerror());
      _exit(3);
    }
    rtg_test_tracer_start();
    void (*app)(void) = (void (*)(void))dlsym(h, "fake_hip_app");
    int (*registered)(void) = (int (*)(void))dlsym(h, "fake_hip_callback_registered");
    app();
    int left = registered();
    rtg_test_tracer_stop();
    _exit(path ? 0 : left ? 6 : 0); /* the hand-over removes the callback */
  }
  int st = 0;
  waitpid(pid, &st, 0);
  CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

/* Read the child's trace: the HIP records' "func(args) [kernel]" texts. */
static int read_calls(const char *out, pid_t *pid_out, char lines[][512], int max) {
  char path[PATH_MAX + 32];
  int n = 0;
  (void)pid_out;
  /* the child's file is out.<pid>: find it */
  char cmd[PATH_MAX + 64];
  snprintf(cmd, sizeof cmd, "cat %s.* 2>/dev/null", out);
  FILE *f = popen(cmd, "r");
  if (!f) return 0;
  char line[4096];
  while (fgets(line, sizeof line, f) && n < max) {
    rtg_record r;
    size_t len = strcspn(line, "\n");
    if (rtg_record_parse(line, len, &r, NULL) != RTG_KIND_HIP_API) continue;
    snprintf(lines[n++], 512, "%s(%s)%s%s%s corr=%s", r.u.HIP_API.func,
             RTG_HAS(&r, RTG_FIELD(HIP_API, args)) ? r.u.HIP_API.args : "-",
             RTG_HAS(&r, RTG_FIELD(HIP_API, kernel)) ? " [" : "",
             RTG_HAS(&r, RTG_FIELD(HIP_API, kernel)) ? r.u.HIP_API.kernel : "",
             RTG_HAS(&r, RTG_FIELD(HIP_API, kernel)) ? "]" : "",
             RTG_HAS(&r, RTG_FIELD(HIP_API, corr)) ? "yes" : "no");
  }
  pclose(f);
  (void)path;
  return n;
}

/* Pointer values differ per run: keep the text up to "=0x" */
static void unpointer(char *s) {
  char *p;
  while ((p = strstr(s, "=0x"))) {
    char *e = p + 3;
    while ((*e >= '0' && *e <= '9') || (*e >= 'a' && *e <= 'f')) e++;
    memmove(p + 2, e, strlen(e) + 1);
    p[1] = 'P';
  }
}

static void check_release(const char *release, int expect_traced) {
  char out[PATH_MAX];
  snprintf(out, sizeof out, "hipabi_%d_%s", (int)getpid(), release);
  run(release, out, "callback");
  char lines[16][512];
  int n = read_calls(out, NULL, lines, 16);
  for (int i = 0; i < n; i++) unpointer(lines[i]);
  if (!expect_traced) {
    CHECK_U64(n, 0);
    return;
  }
  CHECK_U64(n, 3);
  if (n < 3) return;
  /* the order is that of the exits; hipMemcpy's nested hipDeviceSynchronize
   * is filtered out (RTG_HIP_API_FILTER_OUT) */
  CHECK_STR(lines[0], "hipMalloc(ptr=P, size=4096) corr=yes");
  CHECK_STR(lines[1], "hipMemcpy(dst=P, src=P, size=64, kind=HostToDevice) corr=yes");
  CHECK_STR(lines[2], "hipLaunchKernel(func=P, grid={2,1,1}, block={64,1,1}, shmem=0, "
                      "stream=P) [fake_kernel(int)] corr=yes");
}

/* The default path: the first call (in progress for the tracer, as the
 * loading call is) traced by the callback, which then goes. */
static void check_handover(const char *release) {
  char out[PATH_MAX];
  snprintf(out, sizeof out, "hipabi_%d_handover_%s", (int)getpid(), release);
  run(release, out, NULL);
  char lines[16][512];
  int n = read_calls(out, NULL, lines, 16);
  for (int i = 0; i < n; i++) unpointer(lines[i]);
  CHECK_U64(n, 1);
  if (n == 1) CHECK_STR(lines[0], "hipMalloc(ptr=P, size=4096) corr=yes");
}

int main(int argc, char **argv) {
  char exe[PATH_MAX];
  ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
  CHECK(k > 0);
  exe[k > 0 ? k : 0] = 0;
  snprintf(dir, sizeof dir, "%s", exe);
  char *s = strrchr(dir, '/');
  if (s) *s = 0;
  check_release("5.3", 1);
  check_release("6.0", 1);
  check_release("6.2", 1);
  check_release("future", 0);
  check_handover("6.2");
  return check_done(__FILE__);
}
