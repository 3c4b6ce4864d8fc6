/* exec and _exit lose nothing.
 *
 * exec replaces the process image: the writer thread, the per-thread
 * buffers and the waiters vanish with it, and atexit handlers do not run,
 * so up to one flush interval of records (and every GPU op still in
 * flight) would be lost.  _exit (the usual end of a forked child) also
 * skips atexit.  Every object's calls to these functions are redirected
 * here (got_hook.c).  Before exec: wait (boundedly, RTG_EXIT_WAIT_MS) for
 * the GPU ops in flight, write every buffer and this image's summary, and
 * hold the writer off; if exec fails, the summary is cut off the file again
 * and tracing goes on.  The new image, if it runs HSA, writes its own file
 * (core/trace_file.c names it <path>.exec<k>.<pid>).  Before _exit: what
 * exit would do.
 *
 * A vfork child shares our memory but has its own pid: it must not flush
 * (the parent's threads are still running), so it goes straight through.
 * posix_spawn and system() do not replace this process: not wrapped. */
#define _GNU_SOURCE
#include "exec_hook.h"

#include "core/sink.h"
#include "core/tracer.h"
#include "core/writer.h"
#include "core/got_hook.h"
#include "gpu/gpu.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <sys/syscall.h>
#include <unistd.h>

typedef int (*execve_fn)(const char *, char *const[], char *const[]);
typedef int (*execv_fn)(const char *, char *const[]);
typedef int (*fexecve_fn)(int, char *const[], char *const[]);
typedef int (*execveat_fn)(int, const char *, char *const[], char *const[], int);
typedef void (*exit_fn)(int);

static struct {
  execve_fn execve, execvpe;
  execv_fn execv, execvp;
  fexecve_fn fexecve;
  execveat_fn execveat;
  exit_fn _exit, _Exit;
} libc;                      /* the functions the hooks stand in for */
static void (*finish)(void); /* what exit would do */

static __thread int in_exec; /* execvp may reach execve through a GOT too */

/* Returns whether the sink was flushed and is held for the exec. */
static bool before_exec(void) {
  if (in_exec++ || (uint32_t)syscall(SYS_getpid) != rtg_pid()) return false;
  rtg_enter();
  rtg_gpu_quiesce(rtg_cfg.exit_wait_ms);
  bool held = rtg_sink_exec_begin();
  rtg_leave();
  return held;
}

static int after_failed_exec(bool held, int ret) {
  int e = errno;
  if (held) rtg_sink_exec_failed();
  in_exec--;
  errno = e;
  return ret;
}

static int w_execve(const char *path, char *const argv[], char *const envp[]) {
  bool h = before_exec();
  return after_failed_exec(h, libc.execve(path, argv, envp));
}
static int w_execvpe(const char *file, char *const argv[], char *const envp[]) {
  bool h = before_exec();
  return after_failed_exec(h, libc.execvpe(file, argv, envp));
}
static int w_execv(const char *path, char *const argv[]) {
  bool h = before_exec();
  return after_failed_exec(h, libc.execv(path, argv));
}
static int w_execvp(const char *file, char *const argv[]) {
  bool h = before_exec();
  return after_failed_exec(h, libc.execvp(file, argv));
}
static int w_fexecve(int fd, char *const argv[], char *const envp[]) {
  bool h = before_exec();
  return after_failed_exec(h, libc.fexecve(fd, argv, envp));
}
static int w_execveat(int dirfd, const char *path, char *const argv[], char *const envp[],
                      int flags) {
  bool h = before_exec();
  return after_failed_exec(h, libc.execveat(dirfd, path, argv, envp, flags));
}

/* execl, execlp, execle: gather the list (and envp after its NULL), then
 * go the execv way. */
#define GATHER(first, ap, argv, envp, with_env)                                                    \
  size_t n_ = 1;                                                                                   \
  va_start(ap, first);                                                                             \
  while (va_arg(ap, char *)) n_++;                                                                 \
  va_end(ap);                                                                                      \
  char *argv[n_ + 1];                                                                              \
  argv[0] = (char *)(first);                                                                       \
  va_start(ap, first);                                                                             \
  for (size_t i_ = 1; i_ <= n_; i_++) argv[i_] = va_arg(ap, char *);                               \
  char *const *envp = (with_env) ? va_arg(ap, char *const *) : NULL;                               \
  va_end(ap);                                                                                      \
  (void)envp

static int w_execl(const char *path, const char *arg, ...) {
  va_list ap;
  GATHER(arg, ap, argv, envp, false);
  return w_execv(path, argv);
}
static int w_execlp(const char *file, const char *arg, ...) {
  va_list ap;
  GATHER(arg, ap, argv, envp, false);
  return w_execvp(file, argv);
}
static int w_execle(const char *path, const char *arg, ...) {
  va_list ap;
  GATHER(arg, ap, argv, envp, true); /* envp follows the list's NULL */
  return w_execve(path, argv, envp);
}

static void before_exit(void) {
  if ((uint32_t)syscall(SYS_getpid) == rtg_pid()) finish();
}
static void w__exit(int st) {
  before_exit();
  libc._exit(st);
  __builtin_unreachable();
}
static void w__Exit(int st) {
  before_exit();
  libc._Exit(st);
  __builtin_unreachable();
}

void rtg_exec_hooks_install(void (*at_exit)(void)) {
  finish = at_exit;
  static rtg_got_hook hooks[16];
  int n = 0;
#define HOOK(name, w)                                                                              \
  if ((*(void **)&libc.name = dlsym(RTLD_DEFAULT, #name)))                                         \
    hooks[n++] = (rtg_got_hook){#name, (void *)w};
  HOOK(execve, w_execve);
  HOOK(execvpe, w_execvpe);
  HOOK(execv, w_execv);
  HOOK(execvp, w_execvp);
  HOOK(fexecve, w_fexecve);
  HOOK(execveat, w_execveat);
  HOOK(_exit, w__exit);
  HOOK(_Exit, w__Exit);
#undef HOOK
  /* the list forms only need the vector forms they end in */
  if (libc.execv) hooks[n++] = (rtg_got_hook){"execl", (void *)w_execl};
  if (libc.execve) hooks[n++] = (rtg_got_hook){"execle", (void *)w_execle};
  if (libc.execvp) hooks[n++] = (rtg_got_hook){"execlp", (void *)w_execlp};
  int slots = rtg_got_install(hooks, n);
  rtg_writer_every_flush(rtg_got_rescan); /* objects dlopen'ed since */
  rtg_log(1, "exec/_exit: %d call sites redirected", slots);
}
