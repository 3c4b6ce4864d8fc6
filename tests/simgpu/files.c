/* files.c - the files the ROCm user space opens to find and drive a GPU.
 * /dev/kfd and each /dev/dri/renderD<128 + n> are memfds (one per device,
 * never written): real descriptors that close, dup and fstat like any other,
 * told apart by inode; the kernel-driver front end turns their mappings into
 * plain memory and answers their ioctls. The paths of the host view
 * (sysfs.c) are served from its generated tree: the calls that take a path
 * (open, fopen, opendir, access, stat, readlink) get the tree's path instead,
 * so the tree's directories list, its symbolic links resolve (a DRM card's
 * `device` is its PCI directory, whose name is the bus address ROCm SMI
 * parses) and its files read like sysfs attributes. Anything else goes to
 * libc untouched. */
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

#include "hostview.h"

#define RENDER "/dev/dri/renderD"

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
    snprintf(name, sizeof name, "simgpu-renderD%u", SIM_RENDER_MINOR0 + g);
    render_ino[g] = g < sim_cfg.gpus ? make_device(name, &render_fd[g]) : 0;
  }
}

static ino_t inode_of(int fd) {
  struct stat st;
  return fd >= 0 && !fstat(fd, &st) ? st.st_ino : 0;
}

int sim_is_kfd_fd(int fd) {
  pthread_once(&once, init);
  ino_t i = inode_of(fd);
  return i && i == kfd_ino;
}

int sim_render_gpu(int fd) {
  pthread_once(&once, init);
  ino_t i = inode_of(fd);
  for (uint32_t g = 0; i && g < SIM_MAX_GPUS; g++)
    if (render_ino[g] == i) return (int)g;
  return -1;
}

int sim_is_device_fd(int fd) {
  return sim_is_kfd_fd(fd) || sim_render_gpu(fd) >= 0;
}

static int is_device_path(const char *p) {
  return p && (!strcmp(p, "/dev/kfd") || !strncmp(p, RENDER, sizeof RENDER - 1));
}

/* The memfd standing for a device path (not to be closed), -2 if the path
 * is no device of ours, -1 with errno for a render node of a GPU that does
 * not exist. */
static int device_fd(const char *p) {
  if (!is_device_path(p)) return -2;
  pthread_once(&once, init);
  if (!strcmp(p, "/dev/kfd")) return kfd_fd;
  int g = atoi(p + sizeof RENDER - 1) - (int)SIM_RENDER_MINOR0;
  if (g < 0 || g >= (int)sim_cfg.gpus) {
    errno = ENOENT;
    return -1;
  }
  return render_fd[g];
}

/* A new descriptor for a device path; -2 and -1 as device_fd. */
static int open_device(const char *p, int flags) {
  int src = device_fd(p);
  if (src < 0) return src;
  int fd = fcntl(src, (flags & O_CLOEXEC) ? F_DUPFD_CLOEXEC : F_DUPFD, 0);
  SIM_LOG("open %s -> %d\n", p, fd);
  return fd;
}

/* The real paths served from the tree, and where they are in it. */
static const struct served {
  const char *path, *in_tree;
} served[] = {
    {"/sys/devices/virtual/kfd/kfd/topology", "topology"},
    {"/sys/class/kfd/kfd/topology", "topology"},
    {"/sys/class/drm", "sys/class/drm"},
    {"/sys/module/amdgpu", "sys/module/amdgpu"},
    {"/proc/cpuinfo", "cpuinfo"},
    {"/proc/modules", "modules"},
};

/* The path to use instead of p (in buf), or p itself. */
static const char *rewrite(const char *p, char *buf, size_t n) {
  if (!p || p[0] != '/') return p;
  for (size_t i = 0; i < sizeof served / sizeof served[0]; i++) {
    size_t l = strlen(served[i].path);
    if (strncmp(p, served[i].path, l) || (p[l] && p[l] != '/')) continue;
    const char *dir = sim_sysfs_dir();
    if (!dir) return p;
    snprintf(buf, n, "%s/%s%s", dir, served[i].in_tree, p + l);
    return buf;
  }
  return p;
}

int sim_real_open(const char *path, int flags, unsigned mode) {
  REAL(open);
  return real_open(path, flags, mode);
}

/* open's optional mode argument. */
#define MODE_ARG(flags, mode)                                                                      \
  do {                                                                                             \
    if ((flags) & (O_CREAT | O_TMPFILE)) {                                                         \
      va_list ap;                                                                                  \
      va_start(ap, flags);                                                                         \
      mode = va_arg(ap, unsigned);                                                                 \
      va_end(ap);                                                                                  \
    }                                                                                              \
  } while (0)

SIM_EXPORT int open(const char *p, int flags, ...) {
  REAL(open);
  unsigned mode = 0;
  MODE_ARG(flags, mode);
  int fd = open_device(p, flags);
  if (fd != -2) return fd;
  char buf[4096];
  return real_open(rewrite(p, buf, sizeof buf), flags, mode);
}

SIM_EXPORT int open64(const char *p, int flags, ...) __attribute__((alias("open")));

SIM_EXPORT int openat(int dir, const char *p, int flags, ...) {
  REAL(openat);
  unsigned mode = 0;
  MODE_ARG(flags, mode);
  int fd = open_device(p, flags);
  if (fd != -2) return fd;
  char buf[4096];
  return real_openat(dir, rewrite(p, buf, sizeof buf), flags, mode);
}

SIM_EXPORT int openat64(int dir, const char *p, int flags, ...) __attribute__((alias("openat")));

/* What _FORTIFY_SOURCE builds call when open's flags are not constant. */
SIM_EXPORT int __open_2(const char *p, int flags) {
  return open(p, flags);
}

SIM_EXPORT int __open64_2(const char *p, int flags) __attribute__((alias("__open_2")));

SIM_EXPORT FILE *fopen(const char *p, const char *mode) {
  REAL(fopen);
  char buf[4096];
  return real_fopen(rewrite(p, buf, sizeof buf), mode);
}

SIM_EXPORT FILE *fopen64(const char *p, const char *mode) __attribute__((alias("fopen")));

SIM_EXPORT DIR *opendir(const char *p) {
  REAL(opendir);
  char buf[4096];
  return real_opendir(rewrite(p, buf, sizeof buf));
}

SIM_EXPORT int access(const char *p, int mode) {
  REAL(access);
  int fd = device_fd(p);
  if (fd != -2) return fd < 0 ? -1 : 0;
  char buf[4096];
  return real_access(rewrite(p, buf, sizeof buf), mode);
}

/* A device path stats as its memfd. */
SIM_EXPORT int stat(const char *restrict p, struct stat *restrict st) {
  REAL(stat);
  int fd = device_fd(p);
  if (fd != -2) return fd < 0 ? -1 : fstat(fd, st);
  char buf[4096];
  return real_stat(rewrite(p, buf, sizeof buf), st);
}

SIM_EXPORT int stat64(const char *restrict p, struct stat64 *restrict st) {
  REAL(stat64);
  int fd = device_fd(p);
  if (fd != -2) return fd < 0 ? -1 : fstat64(fd, st);
  char buf[4096];
  return real_stat64(rewrite(p, buf, sizeof buf), st);
}

SIM_EXPORT int lstat(const char *restrict p, struct stat *restrict st) {
  REAL(lstat);
  int fd = device_fd(p);
  if (fd != -2) return fd < 0 ? -1 : fstat(fd, st);
  char buf[4096];
  return real_lstat(rewrite(p, buf, sizeof buf), st);
}

SIM_EXPORT int lstat64(const char *restrict p, struct stat64 *restrict st) {
  REAL(lstat64);
  int fd = device_fd(p);
  if (fd != -2) return fd < 0 ? -1 : fstat64(fd, st);
  char buf[4096];
  return real_lstat64(rewrite(p, buf, sizeof buf), st);
}

SIM_EXPORT int fstatat(int dir, const char *restrict p, struct stat *restrict st, int flags) {
  REAL(fstatat);
  int fd = device_fd(p);
  if (fd != -2) return fd < 0 ? -1 : fstat(fd, st);
  char buf[4096];
  return real_fstatat(dir, rewrite(p, buf, sizeof buf), st, flags);
}

SIM_EXPORT int fstatat64(int dir, const char *restrict p, struct stat64 *restrict st, int flags) {
  REAL(fstatat64);
  int fd = device_fd(p);
  if (fd != -2) return fd < 0 ? -1 : fstat64(fd, st);
  char buf[4096];
  return real_fstatat64(dir, rewrite(p, buf, sizeof buf), st, flags);
}

SIM_EXPORT ssize_t readlink(const char *restrict p, char *restrict out, size_t n) {
  REAL(readlink);
  char buf[4096];
  return real_readlink(rewrite(p, buf, sizeof buf), out, n);
}
