/* tp_exec N wait|nowait self|true|fail: N dispatches, then (after waiting
 * for them, or with them still in flight) an exec at once:
 *   self  execl of this program as "tp_exec 3 wait child", which runs HSA
 *         again (3 dispatches) and so writes a trace file of its own;
 *   true  execlp("true"), a program without HSA;
 *   fail  execv of a missing file, which fails: the program goes on with
 *         N more dispatches and ends normally;
 *   late  execlp("true") from libtp_late.so, dlopen'ed after the tracer
 *         loaded (next to this program), 300 ms later: the tracer hooks
 *         objects loaded later when its writer looks.
 * Checks that exec loses no record and a failed exec changes nothing. */
#include <dlfcn.h>
#include <errno.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tp_common.h"

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 5;
  int wait = argc > 2 && !strcmp(argv[2], "wait");
  const char *target = argc > 3 ? argv[3] : "true";
  sg_system_t sys;
  sg_init(&sys);
  hsa_queue_t *q = tp_queue(&sys);
  hsa_signal_t s;
  CHECK(hsa_signal_create(n, 0, NULL, &s));
  for (int i = 0; i < n; i++) {
    hsa_kernel_dispatch_packet_t d;
    sg_dispatch_packet(&d, (uint64_t)(uintptr_t)tp_descriptor, NULL, 64, s);
    sg_submit(q, &d);
  }
  if (wait) sg_wait(s);
  if (!strcmp(target, "child")) {
    printf("exec'ed image: %d dispatches\n", n);
    return 0;
  }
  fflush(stdout);
  if (!strcmp(target, "self")) {
    execl("/proc/self/exe", argv[0], "3", "wait", "child", (char *)NULL);
  } else if (!strcmp(target, "true")) {
    execlp("true", "true", (char *)NULL);
  } else if (!strcmp(target, "late")) {
    char lib[4096];
    ssize_t len = readlink("/proc/self/exe", lib, sizeof lib - 32);
    if (len <= 0) return 1;
    lib[len] = 0;
    strcpy(strrchr(lib, '/') + 1, "libtp_late.so");
    void *h = dlopen(lib, RTLD_NOW);
    void (*late_exec)(void) = h ? (void (*)(void))dlsym(h, "tp_late_exec") : NULL;
    if (!late_exec) {
      fprintf(stderr, "%s: %s\n", lib, dlerror());
      return 1;
    }
    struct timespec ts = {0, 300000000};
    nanosleep(&ts, NULL);
    late_exec();
  } else {
    char *args[] = {"missing", NULL};
    if (execv("/nonexistent/tp_exec_missing", args) == 0 || errno != ENOENT) return 1;
    sg_wait(s);
    hsa_signal_store_relaxed(s, n);
    tp_dispatch_n(q, s, n);
    printf("exec failed as expected, %d dispatches\n", 2 * n);
    return 0;
  }
  perror("exec");
  return 1;
}
