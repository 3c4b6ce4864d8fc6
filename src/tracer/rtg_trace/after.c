/* After the run: the trace files it wrote, converted by rtg-convert and
 * reported by rpt (both found beside rtg-trace), as the options ask.  The
 * traces are those the tracer of each process of the run's tree listed in
 * RTG_TRACE_LIST, and, for a process that lost the variable on the way,
 * the files whose names RTG_FILENAME's pattern gives, written during the
 * run. */
#define _GNU_SOURCE
#include "launcher.h"

#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* The trace files found, without repeats (one file may be named twice). */
typedef struct found {
  char **paths; /* NULL-terminated */
  struct stat *st;
  int n;
} found;

/* Add path when it is a regular file (modified since `since`, unless
 * since is 0); false only when memory ran out (said). */
static int add(found *f, const char *path, time_t since) {
  struct stat st;
  if (stat(path, &st) || !S_ISREG(st.st_mode) || (since && st.st_mtime < since)) return 1;
  for (int i = 0; i < f->n; i++)
    if (f->st[i].st_dev == st.st_dev && f->st[i].st_ino == st.st_ino) return 1;
  char **more = realloc(f->paths, sizeof(char *) * (size_t)(f->n + 2));
  if (more) f->paths = more;
  struct stat *mst = more ? realloc(f->st, sizeof(struct stat) * (size_t)(f->n + 1)) : NULL;
  if (mst) f->st = mst;
  char *copy = mst ? strdup(path) : NULL;
  if (!copy) {
    rtg_fail("list the traces", path, errno);
    return 0;
  }
  f->st[f->n] = st;
  f->paths[f->n++] = copy;
  f->paths[f->n] = NULL;
  return 1;
}

/* The paths the tracer of each process appended to the list. */
static int from_list(found *f, const char *list) {
  FILE *in = fopen(list, "r");
  if (!in) {
    rtg_fail("read the list of traces", list, errno);
    return 1;
  }
  char *line = NULL;
  size_t cap = 0;
  ssize_t n;
  int ok = 1;
  while (ok && (n = getline(&line, &cap, in)) > 0) {
    if (line[n - 1] == '\n') line[n - 1] = 0;
    if (*line) ok = add(f, line, 0);
  }
  free(line);
  fclose(in);
  return ok;
}

/* Is name (a file name) a trace's: ends in .<pid> or .exec<k>.<pid>? */
static int trace_suffix(const char *name) {
  const char *dot = strrchr(name, '.');
  if (!dot || !dot[1] || strspn(dot + 1, "0123456789") != strlen(dot + 1)) return 0;
  return 1;
}

/* The files prefix.<pid> and prefix.exec<k>.<pid> written since `since`,
 * each %hostname%, %rank% or %pid% of prefix matching any text: the
 * processes that lost RTG_TRACE_LIST on the way, or when there is none. */
static int from_names(found *f, const char *prefix, time_t since) {
  static const char *const patterns[] = {"%hostname%", "%rank%", "%pid%"};
  char pat[PATH_MAX * 2 + 8];
  size_t o = 0;
  for (const char *p = prefix; *p && o < sizeof pat - 8;) {
    size_t skip = 0;
    for (size_t i = 0; i < sizeof patterns / sizeof *patterns && !skip; i++)
      if (!strncmp(p, patterns[i], strlen(patterns[i]))) skip = strlen(patterns[i]);
    if (skip) {
      pat[o++] = '*';
      p += skip;
      continue;
    }
    if (strchr("*?[\\", *p)) pat[o++] = '\\';
    pat[o++] = *p++;
  }
  memcpy(pat + o, ".*", 3);
  glob_t g;
  int r = glob(pat, 0, NULL, &g);
  if (r == GLOB_NOMATCH) return 1;
  if (r) {
    rtg_fail("list the traces", pat, r == GLOB_NOSPACE ? ENOMEM : EIO);
    return 0;
  }
  int ok = 1;
  size_t pl = strlen(prefix);
  int literal = !strchr(prefix, '%');
  for (size_t i = 0; ok && i < g.gl_pathc; i++) {
    const char *path = g.gl_pathv[i];
    if (!trace_suffix(path)) continue;
    if (literal) { /* exactly prefix.<pid> or prefix.exec<k>.<pid> */
      const char *t = path + pl + 1;
      if (!strncmp(t, "exec", 4)) {
        t += 4 + strspn(t + 4, "0123456789");
        if (t == path + pl + 5 || *t++ != '.') continue;
      }
      if (strspn(t, "0123456789") != strlen(t)) continue;
    }
    ok = add(f, path, since);
  }
  globfree(&g);
  return ok;
}

static int by_path(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
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
    unsetenv("RTG_TRACE_LIST");
    rtg_signals_child();
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
  found f = {0};
  int ok = !*l->list || from_list(&f, l->list);
  ok = ok && from_names(&f, prefix, since);
  if (*l->list) unlink(l->list);
  if (f.n) qsort(f.paths, (size_t)f.n, sizeof *f.paths, by_path);
  char **files = f.paths;
  int nf = ok ? f.n : -1;
  if (!nf)
    fprintf(stderr, "rtg-trace: no trace files written by this run (RTG_FILENAME=%s)\n", prefix);
  char **av = nf > 0 ? calloc((size_t)nf + 12, sizeof *av) : NULL;
  if (nf > 0 && !av) rtg_fail("convert the traces", NULL, errno);
  if (av && (l->convert || l->stats || l->analyze || l->html)) {
    int k = 1;
    char out[PATH_MAX + 16], html[PATH_MAX + 16], an[PATH_MAX + 16];
    /* beside the traces with -o: named after them, or rtg_trace when
     * their name is a pattern (it may name directories of its own) */
    char dflt[PATH_MAX];
    const char *base = "rtg_trace";
    if (l->outdir && !strchr(prefix, '%'))
      base = prefix;
    else if (l->outdir && snprintf(dflt, sizeof dflt, "%s/rtg_trace", l->outdir) > 0)
      base = dflt;
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
  for (int i = 0; i < f.n; i++) free(f.paths[i]);
  free(f.paths);
  free(f.st);
}
