/* The environment the traced program runs in: the tracer library
 * (HSA_TOOLS_LIB), --hip-table's preloaded rtg_register.so, where the
 * traces go (RTG_FILENAME) and the list of them (RTG_TRACE_LIST). */
#define _GNU_SOURCE
#include "launcher.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* snprintf that says when path would not fit: false then. */
static int path_fmt(char *out, size_t cap, const char *what, const char *a, const char *b) {
  int n = snprintf(out, cap, "%s%s", a, b);
  if (n >= 0 && (size_t)n < cap) return 1;
  fprintf(stderr, "rtg-trace: %s: path too long: %s%s\n", what, a, b);
  return 0;
}

/* rtg_tracer.so beside us (build tree) or in ../lib/rtg (installed). */
static int find_tracer(char *out, size_t cap) {
  char beside[PATH_MAX], installed[PATH_MAX];
  if (!path_fmt(beside, sizeof beside, "tracer", rtg_self_dir, "/rtg_tracer.so") ||
      !path_fmt(installed, sizeof installed, "tracer", rtg_self_dir, "/../lib/rtg/rtg_tracer.so"))
    return 0;
  if (!access(beside, R_OK)) return path_fmt(out, cap, "tracer", beside, "");
  int err = errno;
  char resolved[PATH_MAX];
  if (realpath(installed, resolved)) return path_fmt(out, cap, "tracer", resolved, "");
  fprintf(stderr, "rtg-trace: cannot find rtg_tracer.so: path=%s: %s; path=%s: %s\n", beside,
          strerror(err), installed, strerror(errno));
  return 0;
}

/* 6.2+: HIP hands its dispatch table to rocprofiler-register at the first
 * HIP call, before hsa_init loads HSA_TOOLS_LIB, so a tool library must
 * already be in the process and be named as the register library:
 * rtg_register.so keeps the tables until the tracer takes them.  Appended
 * to LD_PRELOAD: a sanitizer runtime there must stay first.
 * HSA_TOOLS_ROCPROFILER_V1_TOOLS keeps ROCR loading HSA_TOOLS_LIB (6.1+). */
static int preload_register(const char *lib) {
  char dir[PATH_MAX], reg[PATH_MAX];
  snprintf(dir, sizeof dir, "%s", lib);
  char *slash = strrchr(dir, '/');
  if (slash) slash[1] = 0;
  if (!path_fmt(reg, sizeof reg, "--hip-table", slash ? dir : "", "rtg_register.so")) return 0;
  if (access(reg, R_OK)) {
    rtg_fail("find rtg_register.so beside the tracer (--hip-table)", reg, errno);
    return 0;
  }
  const char *pre = getenv("LD_PRELOAD");
  size_t len = (pre ? strlen(pre) : 0) + strlen(reg) + 2;
  char *buf = malloc(len);
  if (!buf) {
    rtg_fail("set LD_PRELOAD", NULL, errno);
    return 0;
  }
  snprintf(buf, len, "%s%s%s", pre && *pre ? pre : "", pre && *pre ? ":" : "", reg);
  int ok = rtg_setenv("LD_PRELOAD", buf) && rtg_setenv("ROCPROFILER_REGISTER_LIBRARY", reg) &&
           rtg_setenv("HSA_TOOLS_ROCPROFILER_V1_TOOLS", "1");
  free(buf);
  return ok;
}

/* mkdir -p dir; false (said, naming the directory that failed). */
static int mkdirs(const char *dir) {
  char p[PATH_MAX];
  if (!path_fmt(p, sizeof p, "output directory", dir, "")) return 0;
  for (char *s = p + 1;; s++) {
    if (*s && *s != '/') continue;
    char was = *s;
    *s = 0;
    if (mkdir(p, 0777) && errno != EEXIST) {
      rtg_fail("create the output directory", p, errno);
      return 0;
    }
    if (!was) return 1;
    *s = was;
  }
}

/* The list the tracer of each process of the run appends its trace's path
 * to (RTG_TRACE_LIST): found wherever the pattern puts a trace, after fork
 * and exec, whatever directory the process runs in.  In $TMPDIR (/tmp). */
static void make_list(launch *l) {
  const char *tmp = getenv("TMPDIR");
  if (!tmp || !*tmp) tmp = "/tmp";
  int fd = -1;
  if (path_fmt(l->list, sizeof l->list, "trace list", tmp, "/rtg-trace-list.XXXXXX")) {
    fd = mkstemp(l->list);
    if (fd < 0) rtg_fail("create the list of traces in TMPDIR (finding them by name)", tmp, errno);
  }
  if (fd >= 0) {
    close(fd);
    if (rtg_setenv("RTG_TRACE_LIST", l->list)) return;
    unlink(l->list);
  }
  l->list[0] = 0;
}

int rtg_setup(launch *l, char *prefix, size_t cap) {
  char lib[PATH_MAX];
  if (l->tracer) {
    if (!realpath(l->tracer, lib)) {
      rtg_fail("find the tracer", l->tracer, errno);
      return 0;
    }
  } else if (!find_tracer(lib, sizeof lib)) {
    return 0;
  }
  if (!rtg_setenv("HSA_TOOLS_LIB", lib)) return 0;
  if (l->table && !preload_register(lib)) return 0;

  const char *fname = l->filename ? l->filename : getenv("RTG_FILENAME");
  if (!fname || !*fname) fname = "rtg_trace.txt";
  if (l->outdir) {
    if (!mkdirs(l->outdir)) return 0;
    char dir[PATH_MAX];
    if (!path_fmt(dir, sizeof dir, "output", l->outdir, "/") ||
        !path_fmt(prefix, cap, "output", dir, fname))
      return 0;
  } else if (!path_fmt(prefix, cap, "output", fname, "")) {
    return 0;
  }
  if (!rtg_setenv("RTG_FILENAME", prefix)) return 0;
  /* a list of another rtg-trace around this one is not ours */
  unsetenv("RTG_TRACE_LIST");
  if (l->convert || l->stats || l->analyze || l->html || l->rpt) make_list(l);
  return 1;
}
