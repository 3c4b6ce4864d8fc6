/* tp_managed_os: managed memory made as HIP 6.4 makes it, by a stand-in
 * with HIP's file name (libamdhip64.so.tp beside this program, loaded
 * before HSA starts): a 2 MiB range mapped and given SVM attributes, the
 * attributes set again (as hipMemAdvise), then unmapped; a 1 MiB range
 * whose free a forked child makes first (in the child's image) before the
 * parent's; the same calls made by this program itself (its own mmap and
 * munmap, not HIP's); and calls of the stand-in that fail, with their
 * errno.  Prints what the program sees, the same traced and untraced. */
#include <dlfcn.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tp_common.h"

int main(int argc, char **argv) {
  (void)argc;
  char path[4096];
  snprintf(path, sizeof path, "%s", argv[0]);
  char *slash = strrchr(path, '/');
  snprintf(slash ? slash + 1 : path, sizeof path - (size_t)(slash ? slash + 1 - path : 0),
           "libamdhip64.so.tp");
  void *lib = dlopen(path, RTLD_NOW);
  if (!lib) {
    printf("cannot load %s: %s\n", path, dlerror());
    return 1;
  }
  void *(*managed)(size_t) = (void *(*)(size_t))dlsym(lib, "tp_hip_managed");
  int (*advise)(void *, size_t) = (int (*)(void *, size_t))dlsym(lib, "tp_hip_advise");
  int (*hfree)(void *, size_t) = (int (*)(void *, size_t))dlsym(lib, "tp_hip_free");
  int (*errno_kept)(void) = (int (*)(void))dlsym(lib, "tp_hip_errno_kept");
  sg_system_t sys;
  sg_init(&sys);
  enum { MB = 1 << 20 };
  void *p = managed(2 * MB);
  printf("managed 2 MiB: %s\n", p ? "ok" : "refused");
  if (!p) return 1;
  ((char *)p)[0] = 1;
  printf("advise: %s\n", advise(p, 2 * MB) ? "refused" : "ok");
  printf("free: %d\n", hfree(p, 2 * MB));
  /* the program's own mapping given the attributes: not HIP's */
  void *own =
      mmap(NULL, MB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_NORESERVE | MAP_ANONYMOUS, -1, 0);
  printf("own mapping advised: %s\n", advise(own, MB) ? "refused" : "ok");
  munmap(own, MB);
  printf("errno kept: %s\n", errno_kept() ? "yes" : "no");
  void *f = managed(MB);
  fflush(stdout);
  pid_t child = fork();
  if (child == 0) {
    hfree(f, MB);
    _exit(0);
  }
  int st;
  waitpid(child, &st, 0);
  printf("child: exit %d; parent's free: %d\n", WEXITSTATUS(st), hfree(f, MB));
  CHECK(hsa_shut_down());
  return 0;
}
