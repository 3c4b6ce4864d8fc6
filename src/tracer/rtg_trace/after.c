/* After the run: the trace files it wrote, converted by rtg-convert and
 * reported by rpt (both found beside rtg-trace), as the options ask. */
#define _GNU_SOURCE
#include "launcher.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* The trace files this run wrote, PREFIX.<pid> modified since `since`,
 * into *files (NULL-terminated); their number, -1 when they cannot be
 * listed (said). */
static int collect(const char *prefix, time_t since, char ***files) {
  char dir[PATH_MAX], base[PATH_MAX];
  const char *slash = strrchr(prefix, '/');
  if (slash) {
    snprintf(dir, sizeof dir, "%.*s", (int)(slash - prefix), prefix);
    if (!*dir) strcpy(dir, "/");
    snprintf(base, sizeof base, "%s", slash + 1);
  } else {
    strcpy(dir, ".");
    snprintf(base, sizeof base, "%s", prefix);
  }
  DIR *d = opendir(dir);
  if (!d) {
    rtg_fail("list the traces", dir, errno);
    return -1;
  }
  int n = 0;
  size_t bl = strlen(base);
  struct dirent *e;
  while ((e = readdir(d))) {
    if (strncmp(e->d_name, base, bl) || e->d_name[bl] != '.') continue;
    const char *t = e->d_name + bl + 1;
    if (!*t || strspn(t, "0123456789") != strlen(t)) continue;
    char path[PATH_MAX * 2];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    struct stat st;
    if (stat(path, &st) || st.st_mtime < since) continue;
    char **more = realloc(*files, sizeof(char *) * (size_t)(n + 2));
    char *copy = more ? strdup(path) : NULL;
    if (more) *files = more;
    if (!copy) {
      rtg_fail("list the traces", path, errno);
      closedir(d);
      return -1;
    }
    (*files)[n++] = copy;
    (*files)[n] = NULL;
  }
  closedir(d);
  return n;
}

/* Run a helper program (rtg-convert, rpt) from our directory; its exit
 * status, -1 when it could not be run (said). */
static int run_tool(const char *tool, char **argv) {
  char path[PATH_MAX + 64];
  snprintf(path, sizeof path, "%s/%s", rtg_self_dir, tool);
  argv[0] = path;
  fflush(stdout);
  pid_t pid = fork();
  if (pid < 0) {
    rtg_fail("fork to run", path, errno);
    return -1;
  }
  if (!pid) {
    /* the tools must not be traced themselves */
    unsetenv("HSA_TOOLS_LIB");
    unsetenv("LD_PRELOAD");
    execv(path, argv);
    rtg_fail("run", path, errno);
    _exit(127);
  }
  int st;
  while (waitpid(pid, &st, 0) < 0) {
    if (errno != EINTR) {
      rtg_fail("wait for", path, errno);
      return -1;
    }
  }
  return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}

void rtg_after(const launch *l, const char *prefix, time_t since) {
  if (!l->convert && !l->stats && !l->analyze && !l->html && !l->rpt) return;
  char **files = NULL;
  int nf = collect(prefix, since, &files);
  if (!nf) fprintf(stderr, "rtg-trace: no trace files %s.<pid> written by this run\n", prefix);
  char **av = nf > 0 ? calloc((size_t)nf + 12, sizeof *av) : NULL;
  if (nf > 0 && !av) rtg_fail("convert the traces", NULL, errno);
  if (av && (l->convert || l->stats || l->analyze || l->html)) {
    int k = 1;
    char out[PATH_MAX + 16], html[PATH_MAX + 16], an[PATH_MAX + 16];
    const char *base = l->outdir ? prefix : "rtg_trace";
    if (l->convert && *l->convert)
      snprintf(out, sizeof out, "%s", l->convert);
    else if (l->convert)
      snprintf(out, sizeof out, "%s.json", base);
    if (l->convert || (!l->analyze && !l->html)) { /* --summary alone: no JSON kept */
      av[k++] = "-o";
      av[k++] = l->convert ? out : "/dev/null";
    }
    if (l->stats) av[k++] = "--summary";
    if (l->analyze) {
      snprintf(an, sizeof an, "--analyze%s%s", *l->analyze ? "=" : "", l->analyze);
      av[k++] = an;
    }
    if (l->html) {
      snprintf(html, sizeof html, *l->html ? "%s" : "%s.html", *l->html ? l->html : base);
      av[k++] = "--html";
      av[k++] = html;
    }
    for (int i = 0; i < nf; i++) av[k++] = files[i];
    av[k] = NULL;
    if (run_tool("rtg-convert", av) == 0) {
      if (l->convert) fprintf(stderr, "rtg-trace: wrote %s\n", out);
      if (l->analyze && *l->analyze) fprintf(stderr, "rtg-trace: wrote %s\n", l->analyze);
      if (l->html) fprintf(stderr, "rtg-trace: wrote %s\n", html);
    }
  }
  if (av && l->rpt) {
    int k = 1;
    for (int i = 0; i < nf; i++) av[k++] = files[i];
    av[k] = NULL;
    run_tool("rpt", av);
  }
  free(av);
  for (int i = 0; i < nf; i++) free(files[i]);
  free(files);
}
