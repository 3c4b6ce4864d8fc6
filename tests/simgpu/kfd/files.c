/* files.c - the files ROCR's built-in thunk opens. /dev/kfd and each
 * /dev/dri/renderD<128 + n> are memfds (one per device, never written): real
 * descriptors that close, dup and fstat like any other, told apart by inode,
 * whose mappings mmap.c turns into plain memory and whose ioctls ioctl.c
 * answers. Paths under KFD's sysfs topology and /proc/cpuinfo (which names
 * the CPU agent) are served from the generated tree of topology.c. Anything
 * else goes to libc untouched. */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kfdsim.h"

#define TOPO_SYS "/sys/devices/virtual/kfd/kfd/topology"
#define TOPO_CLASS "/sys/class/kfd/kfd/topology"
#define RENDER "/dev/dri/renderD"
#define RENDER_MINOR0 128

static int kfd_fd = -1, render_fd[SIM_MAX_GPUS];
static ino_t kfd_ino, render_ino[SIM_MAX_GPUS];
static pthread_once_t once = PTHREAD_ONCE_INIT;

#define REAL(name)                                                                                 \
  static __typeof__(name) *real_##name;                                                            \
  if (!real_##name) real_##name = (__typeof__(name) *)dlsym(RTLD_NEXT, #name)

static ino_t make_device(const char *name, int *fd) {
  struct stat st;
  *fd = memfd_create(name, MFD_CLOEXEC);
  return *fd >= 0 && !fstat(*fd, &st) ? st.st_ino : 0;
}

static void init(void) {
  sim_config_load();
  kfd_ino = make_device("simgpu-kfd", &kfd_fd);
  for (uint32_t g = 0; g < SIM_MAX_GPUS; g++) {
    char name[32];
    snprintf(name, sizeof name, "simgpu-renderD%u", RENDER_MINOR0 + g);
    render_ino[g] = g < sim_cfg.gpus ? make_device(name, &render_fd[g]) : 0;
  }
}

static ino_t inode_of(int fd) {
  struct stat st;
  return fd >= 0 && !fstat(fd, &st) ? st.st_ino : 0;
}

int kfdsim_is_kfd_fd(int fd) {
  pthread_once(&once, init);
  ino_t i = inode_of(fd);
  return i && i == kfd_ino;
}

int kfdsim_render_gpu(int fd) {
  pthread_once(&once, init);
  ino_t i = inode_of(fd);
  for (uint32_t g = 0; i && g < SIM_MAX_GPUS; g++)
    if (render_ino[g] == i) return (int)g;
  return -1;
}

int kfdsim_is_device_fd(int fd) {
  return kfdsim_is_kfd_fd(fd) || kfdsim_render_gpu(fd) >= 0;
}

/* A new descriptor for a device path, -2 if the path is no device of ours,
 * -1 with errno for a render node of a GPU that does not exist. */
static int open_device(const char *p, int flags) {
  int src;
  if (!strcmp(p, "/dev/kfd")) {
    pthread_once(&once, init);
    src = kfd_fd;
  } else if (!strncmp(p, RENDER, sizeof RENDER - 1)) {
    pthread_once(&once, init);
    int g = atoi(p + sizeof RENDER - 1) - RENDER_MINOR0;
    if (g < 0 || g >= (int)sim_cfg.gpus) {
      errno = ENOENT;
      return -1;
    }
    src = render_fd[g];
  } else {
    return -2;
  }
  int fd = fcntl(src, (flags & O_CLOEXEC) ? F_DUPFD_CLOEXEC : F_DUPFD, 0);
  KFDSIM_LOG("open %s -> %d\n", p, fd);
  return fd;
}

/* The path to use instead of p (in buf), or p itself. */
static const char *rewrite(const char *p, char *buf, size_t n) {
  if (!p || p[0] != '/') return p;
  size_t l = 0;
  if (!strncmp(p, TOPO_SYS, sizeof TOPO_SYS - 1))
    l = sizeof TOPO_SYS - 1;
  else if (!strncmp(p, TOPO_CLASS, sizeof TOPO_CLASS - 1))
    l = sizeof TOPO_CLASS - 1;
  else if (strcmp(p, "/proc/cpuinfo"))
    return p;
  if (p[l] && p[l] != '/') return p;
  const char *dir = kfdsim_topology_dir();
  if (!dir) return p;
  if (l)
    snprintf(buf, n, "%s/topology%s", dir, p + l);
  else
    snprintf(buf, n, "%s/cpuinfo", dir);
  return buf;
}

int kfdsim_real_open(const char *path, int flags, unsigned mode) {
  REAL(open);
  return real_open(path, flags, mode);
}

KFDSIM_EXPORT int open(const char *p, int flags, ...) {
  REAL(open);
  unsigned mode = 0;
  if (flags & (O_CREAT | O_TMPFILE)) {
    va_list ap;
    va_start(ap, flags);
    mode = va_arg(ap, unsigned);
    va_end(ap);
  }
  int fd = open_device(p, flags);
  if (fd != -2) return fd;
  char buf[4096];
  return real_open(rewrite(p, buf, sizeof buf), flags, mode);
}

KFDSIM_EXPORT int open64(const char *p, int flags, ...) __attribute__((alias("open")));

KFDSIM_EXPORT int openat(int dir, const char *p, int flags, ...) {
  REAL(openat);
  unsigned mode = 0;
  if (flags & (O_CREAT | O_TMPFILE)) {
    va_list ap;
    va_start(ap, flags);
    mode = va_arg(ap, unsigned);
    va_end(ap);
  }
  int fd = open_device(p, flags);
  if (fd != -2) return fd;
  char buf[4096];
  return real_openat(dir, rewrite(p, buf, sizeof buf), flags, mode);
}

KFDSIM_EXPORT int openat64(int dir, const char *p, int flags, ...) __attribute__((alias("openat")));

KFDSIM_EXPORT FILE *fopen(const char *p, const char *mode) {
  REAL(fopen);
  char buf[4096];
  return real_fopen(rewrite(p, buf, sizeof buf), mode);
}

KFDSIM_EXPORT FILE *fopen64(const char *p, const char *mode) __attribute__((alias("fopen")));

KFDSIM_EXPORT DIR *opendir(const char *p) {
  REAL(opendir);
  char buf[4096];
  return real_opendir(rewrite(p, buf, sizeof buf));
}

KFDSIM_EXPORT int access(const char *p, int mode) {
  REAL(access);
  if ((!strcmp(p, "/dev/kfd") || !strncmp(p, RENDER, sizeof RENDER - 1))) {
    int fd = open_device(p, O_CLOEXEC);
    if (fd < 0) return -1;
    close(fd);
    return 0;
  }
  char buf[4096];
  return real_access(rewrite(p, buf, sizeof buf), mode);
}
