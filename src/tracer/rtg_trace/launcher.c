/* What the parts of rtg-trace share (launcher.h): the directory it runs
 * from, its failure messages and its changes to the environment. */
#define _GNU_SOURCE
#include "launcher.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char rtg_self_dir[PATH_MAX];

void rtg_fail(const char *what, const char *path, int err) {
  fprintf(stderr, "rtg-trace: cannot %s%s%s%s%s\n", what, path ? ": path=" : "", path ? path : "",
          err ? ": " : "", err ? strerror(err) : "");
}

int rtg_setenv(const char *name, const char *value) {
  if (!setenv(name, value, 1)) return 1;
  rtg_fail("set the environment variable", name, errno);
  return 0;
}

void rtg_find_self_dir(void) {
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  char *s = n > 0 ? (exe[n] = 0, strrchr(exe, '/')) : NULL;
  if (s) *s = 0;
  snprintf(rtg_self_dir, sizeof rtg_self_dir, "%s", s ? exe : ".");
}
