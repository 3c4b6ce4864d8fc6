/* Where the trace file goes (trace_path.h). */
#define _GNU_SOURCE
#include "trace_path.h"

#include "config.h"
#include "emit.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* When this process started, CLOCK_BOOTTIME ns (/proc/self/stat field 22,
 * in clock ticks; exec keeps it). */
static uint64_t process_start_ns(void) {
  char buf[1024];
  int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return UINT64_MAX;
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return UINT64_MAX;
  buf[n] = 0;
  char *p = strrchr(buf, ')'); /* the command name may hold spaces */
  for (int field = 2; p && field < 22; field++) p = strchr(p + 1, ' ');
  if (!p) return UINT64_MAX;
  long hz = sysconf(_SC_CLK_TCK);
  return strtoull(p + 1, NULL, 10) * (1000000000ull / (uint64_t)(hz > 0 ? hz : 100));
}

/* Was path written by an earlier image of this process (before an exec)?
 * Its header then names our pid and a boot time after our start; a file
 * of an earlier process that had our pid started before us. */
static bool earlier_image(const char *path) {
  char buf[4096];
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return false;
  buf[n] = 0;
  char *nl = strchr(buf, '\n');
  if (nl) *nl = 0;
  const char *b = strstr(buf, " boot_ns:");
  unsigned long pid = 0;
  if (sscanf(buf, "RTG: pid:%lu ", &pid) != 1 || pid != rtg_pid() || !b) return false;
  return strtoull(b + 9, NULL, 10) >= process_start_ns();
}

/* path (cap bytes, ending in ".<pid>"): exec keeps the pid, so never
 * overwrite what the image before wrote; the k-th exec'ed image writes
 * <base>.exec<k>.<pid> (the pid stays last). */
static void after_earlier_images(char *path, size_t cap) {
  char base[sizeof rtg_cfg.path - 32];
  memcpy(base, path, sizeof base); /* rtg_config_path ends the path well before */
  base[sizeof base - 1] = 0;
  char *dot = strrchr(base, '.');
  if (dot) *dot = 0; /* the ".<pid>" rtg_config_path appended */
  for (int k = 1; k < 10000 && earlier_image(path); k++)
    snprintf(path, cap, "%s.exec%d.%u", base, k, rtg_pid());
}

/* mkdir -p of the directories of path; false with errno set and the
 * directory that could not be made in failed[0..cap). */
static bool make_dirs(const char *path, char *failed, size_t cap) {
  char p[sizeof rtg_cfg.path];
  snprintf(p, sizeof p, "%s", path);
  char *last = strrchr(p, '/');
  if (!last || last == p) return true;
  *last = 0;
  for (char *s = p + 1;; s++) {
    if (*s && *s != '/') continue;
    char was = *s;
    *s = 0;
    struct stat st;
    if (mkdir(p, 0777) && errno != EEXIST) {
      int err = errno;
      snprintf(failed, cap, "%s", p);
      errno = err;
      return false;
    }
    if (stat(p, &st) || !S_ISDIR(st.st_mode)) { /* EEXIST of a file */
      snprintf(failed, cap, "%s", p);
      errno = ENOTDIR;
      return false;
    }
    if (!was) return true;
    *s = was;
  }
}

static int open_trace(const char *path) {
  return open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
}

int rtg_trace_path_open(void) {
  char *path = rtg_cfg.path;
  size_t cap = sizeof rtg_cfg.path;
  rtg_config_path(path, cap, rtg_pid());
  after_earlier_images(path, cap);
  int fd = open_trace(path);
  char failed[sizeof rtg_cfg.path];
  snprintf(failed, sizeof failed, "%s", path);
  if (fd < 0 && (errno == ENOENT || errno == ENOTDIR) && make_dirs(path, failed, sizeof failed)) {
    snprintf(failed, sizeof failed, "%s", path);
    fd = open_trace(path);
  }
  if (fd >= 0) return fd;
  int err = errno;
  const char *name = strrchr(path, '/');
  if (!name || !name[1]) {
    rtg_log(0, "Cannot open the trace file: path=%s: %s; not tracing", path, strerror(err));
    return -1;
  }
  /* the fallback: the file's own name in the working directory */
  char wanted[sizeof rtg_cfg.path];
  snprintf(wanted, sizeof wanted, "%s", path);
  memmove(path, name + 1, strlen(name + 1) + 1);
  rtg_config_path(wanted, sizeof wanted, rtg_pid()); /* the name as RTG_FILENAME gives it */
  after_earlier_images(path, cap);
  rtg_log(0, "Cannot create the trace file %s: path=%s: %s; writing %s in the working directory",
          wanted, failed, strerror(err), path);
  fd = open_trace(path);
  if (fd < 0)
    rtg_log(0, "Cannot open the trace file: path=%s: %s; not tracing", path, strerror(errno));
  return fd;
}

size_t rtg_trace_path_list_line(char *out, size_t cap) {
  if (!rtg_cfg.trace_list) return 0;
  char cwd[sizeof rtg_cfg.path];
  int n;
  if (rtg_cfg.path[0] == '/')
    n = snprintf(out, cap, "%s\n", rtg_cfg.path);
  else if (getcwd(cwd, sizeof cwd))
    n = snprintf(out, cap, "%s/%s\n", cwd, rtg_cfg.path);
  else
    return 0;
  return n > 0 && (size_t)n < cap ? (size_t)n : 0;
}
