/* ABI test of the ROCTx paths: a stand-in libroctx64 (tests/abi/fake_roctx.c)
 * reporting as roctracer's 5.2 library (RegisterApiCallback), as 5.3.1+
 * (roctxRegisterTracerCallback), and as 6.2's rocprofiler-sdk-roctx (core
 * table through rocprofiler_set_api_table of the preloaded rtg_register.so,
 * before the tracer's init -- "62" -- or after it, when the callback path
 * already reports and the table must be left alone -- "62late").  Checks the ROCTX records: marks,
 * nested push/pop ranges with depth, start/stop ranges across threads, and the innermost range the
 * HSA side would use for RTG_KERNEL_RENAME, and ranges left open: written with unclosed:1 when
 * their thread ends (push) or at the tracer's end (push and start). */
#define _GNU_SOURCE
#include "check.h"
#include "core/thread_state.h"
#include "rtg/record.h"
#include "tracer_core.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[PATH_MAX];
static void (*markA)(const char *);
static int (*pushA)(const char *);
static int (*pop)(void);
static uint64_t (*startA)(const char *);
static void (*stop)(uint64_t);

static void *stopper(void *id) {
  stop((uint64_t)(uintptr_t)id);
  return NULL;
}

static void *pusher(void *arg) {
  pushA("thread range"); /* never popped: written when the thread ends */
  return NULL;
}

static void child(const char *libdir, const char *out, int tables_first) {
  char lib[PATH_MAX + 64];
  setenv("RTG_FILENAME", out, 1);
  snprintf(lib, sizeof lib, "%s/../rtg_register.so", dir); /* as LD_PRELOAD */
  if (!dlopen(lib, RTLD_NOW | RTLD_GLOBAL)) _exit(3);
  snprintf(lib, sizeof lib, "%s/../abi/%s", dir, libdir);
  void *h = dlopen(lib, RTLD_NOW | RTLD_GLOBAL);
  if (!h) {
    fprintf(stderr, "cannot load %s: %s\n", lib, dlerror());
    _exit(3);
  }
  *(void **)&markA = dlsym(h, "roctxMarkA");
  *(void **)&pushA = dlsym(h, "roctxRangePushA");
  *(void **)&pop = dlsym(h, "roctxRangePop");
  *(void **)&startA = dlsym(h, "roctxRangeStartA");
  *(void **)&stop = dlsym(h, "roctxRangeStop");
  if (tables_first) markA("before init: not traced");
  rtg_test_tracer_start();
  int bad = 0;
  markA("hello 'marker'");
  bad |= rtg_range_current() != NULL;
  pushA("outer");
  uint64_t id = startA("async range");
  pushA("inner");
  const char *cur = rtg_range_current();
  bad |= !cur || strcmp(cur, "inner") != 0;
  pop();
  cur = rtg_range_current();
  bad |= !cur || strcmp(cur, "outer") != 0;
  pop();
  pop(); /* unbalanced: ignored */
  pthread_t t;
  pthread_create(&t, NULL, stopper, (void *)(uintptr_t)id);
  pthread_join(t, NULL);
  pthread_create(&t, NULL, pusher, NULL);
  pthread_join(t, NULL);
  pushA("left open");
  startA("never stopped");
  rtg_test_tracer_stop();
  markA("after fini: not traced");
  _exit(bad ? 4 : 0);
}

static void check_lib(const char *libdir, const char *tag, int tables_first) {
  char out[PATH_MAX];
  snprintf(out, sizeof out, "roctx_%d_%s", (int)getpid(), tag);
  pid_t pid = fork();
  if (pid == 0) child(libdir, out, tables_first);
  int st = 0;
  waitpid(pid, &st, 0);
  CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  char cmd[PATH_MAX + 64];
  snprintf(cmd, sizeof cmd, "cat %s.* 2>/dev/null", out);
  FILE *f = popen(cmd, "r");
  /* each thread's records are in order in the file, the threads' are not
   * (per-thread buffers): order them by their end, the file's order where
   * two end together (both on the same thread) */
  char line[4096], got[8][320];
  struct {
    rtg_record r;
    char op[16], text[256]; /* the parsed strings point into line */
  } rec[8];
  int n = 0;
  while (f && fgets(line, sizeof line, f) && n < 8) {
    rtg_record r;
    if (rtg_record_parse(line, strcspn(line, "\n"), &r, NULL) != RTG_KIND_ROCTX) continue;
    CHECK(r.u.ROCTX.start <= r.u.ROCTX.stop);
    snprintf(rec[n].op, sizeof rec[n].op, "%s", r.u.ROCTX.op);
    snprintf(rec[n].text, sizeof rec[n].text, "%s",
             RTG_HAS(&r, RTG_FIELD(ROCTX, message)) ? r.u.ROCTX.message : "-");
    rec[n++].r = r;
  }
  if (f) pclose(f);
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0 && rec[j].r.u.ROCTX.stop < rec[j - 1].r.u.ROCTX.stop; j--) {
      __typeof__(rec[0]) t = rec[j];
      rec[j] = rec[j - 1];
      rec[j - 1] = t;
    }
  for (int i = 0; i < n; i++) {
    const rtg_record *r = &rec[i].r;
    snprintf(got[i], sizeof got[i], "%s %s depth=%lld id=%llu%s%s", rec[i].op, rec[i].text,
             RTG_HAS(r, RTG_FIELD(ROCTX, depth)) ? (long long)r->u.ROCTX.depth : -1LL,
             RTG_HAS(r, RTG_FIELD(ROCTX, id)) ? (unsigned long long)r->u.ROCTX.id : 0ULL,
             RTG_HAS(r, RTG_FIELD(ROCTX, unclosed)) ? " unclosed" : "",
             r->tid != rec[0].r.tid ? " (other thread)" : "");
  }
  CHECK_U64(n, 7);
  if (n < 7) return;
  CHECK_STR(got[0], "mark hello 'marker' depth=-1 id=0");
  CHECK_STR(got[1], "push inner depth=1 id=0");
  CHECK_STR(got[2], "push outer depth=0 id=0");
  CHECK_STR(got[3], "start async range depth=-1 id=1 (other thread)");
  CHECK_STR(got[4], "push thread range depth=0 id=0 unclosed (other thread)");
  CHECK_STR(got[5], "push left open depth=0 id=0 unclosed");
  CHECK_STR(got[6], "start never stopped depth=-1 id=2 unclosed");
}

int main(void) {
  char exe[PATH_MAX];
  ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
  exe[k > 0 ? k : 0] = 0;
  snprintf(dir, sizeof dir, "%s", exe);
  char *s = strrchr(dir, '/');
  if (s) *s = 0;
  check_lib("roctx52/libroctx64.so.1", "52", 0);
  check_lib("roctx53/libroctx64.so.4", "53", 0);
  check_lib("roctx62/libroctx64.so.4", "62", 1);
  check_lib("roctx62/libroctx64.so.4", "62late", 0);
  return check_done(__FILE__);
}
