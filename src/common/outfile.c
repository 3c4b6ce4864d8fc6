/* Outputs written under a temporary name and renamed at the end of a
 * successful run; see outfile.h. */
#define _GNU_SOURCE /* nftw's FTW_DEPTH and FTW_PHYS */
#include "outfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"

/* The pending outputs.  A fixed table, filled before its count grows, so
 * that the signal handler may walk it at any moment. */
#define MAX_PENDING 64

typedef struct pending {
  char *final, *tmp;
  bool dir;
  bool inside; /* a file in a directory output still to be made: moves with it */
  void (*before)(const char *path);
} pending;

static pending pend[MAX_PENDING];
static volatile sig_atomic_t npend;
static int first_error;

void rtg_out_note_error(int err) {
  int none = 0;
  if (err)
    __atomic_compare_exchange_n(&first_error, &none, err, false, __ATOMIC_RELAXED,
                                __ATOMIC_RELAXED);
}

const char *rtg_out_why(void) {
  int e = __atomic_load_n(&first_error, __ATOMIC_RELAXED);
  if (!e) e = errno;
  return e ? strerror(e) : "write error";
}

/* SIGINT, SIGTERM, SIGHUP: the temporary files go, then the signal does
 * what it would have done (temporary directories, which cannot be removed
 * safely here, stay: their names begin with '.'). */
static void on_signal(int sig) {
  for (sig_atomic_t i = 0; i < npend; i++)
    if (!pend[i].dir && !pend[i].inside) unlink(pend[i].tmp);
  signal(sig, SIG_DFL);
  raise(sig);
}

static void discard_at_exit(void) {
  rtg_out_discard();
}

static void once(void) {
  static bool done;
  if (done) return;
  done = true;
  atexit(discard_at_exit);
  static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
  for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
    struct sigaction old;
    if (sigaction(sigs[i], NULL, &old) || old.sa_handler != SIG_DFL) continue; /* not ours */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(sigs[i], &sa, NULL);
  }
}

static bool add(char *final, char *tmp, bool dir, void (*before)(const char *), bool inside) {
  once();
  if (npend == MAX_PENDING) {
    free(final);
    free(tmp);
    errno = EMFILE;
    return false;
  }
  pend[npend] = (pending){final, tmp, dir, inside, before};
  npend++;
  return true;
}

static mode_t new_mode(mode_t full) {
  mode_t mask = umask(0);
  umask(mask);
  return full & ~mask;
}

/* "DIR/.BASE.rtg-XXXXXX" for final "DIR/BASE" (malloc'd). */
static char *temp_name(const char *final) {
  const char *slash = strrchr(final, '/');
  size_t dlen = slash ? (size_t)(slash - final) + 1 : 0;
  size_t blen = strlen(final + dlen);
  if (blen > 200) blen = 200; /* within NAME_MAX with the suffix */
  char *t = malloc(dlen + blen + 16);
  if (!t) return NULL;
  memcpy(t, final, dlen);
  t[dlen] = '.';
  memcpy(t + dlen + 1, final + dlen, blen);
  strcpy(t + dlen + 1 + blen, ".rtg-XXXXXX");
  return t;
}

/* A file in the directory of a directory output that does not exist yet
 * (--stats=DIR --gaps=DIR/gaps.txt): made in that output's temporary
 * directory, with which it moves.  NULL with errno ENOENT when path is in
 * none. */
static const char *inside_pending_dir(const char *path) {
  for (sig_atomic_t i = 0; i < npend; i++) {
    size_t n = strlen(pend[i].final);
    if (!pend[i].dir || strncmp(path, pend[i].final, n) || path[n] != '/') continue;
    size_t len = strlen(pend[i].tmp) + strlen(path + n) + 1;
    char *p = malloc(len), *final = strdup(path);
    if (p) snprintf(p, len, "%s%s", pend[i].tmp, path + n);
    int fd = p && final ? open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666) : -1;
    if (fd < 0 || !add(final, p, false, NULL, true)) {
      int e = fd < 0 && p && final ? errno : ENOMEM;
      if (fd >= 0) close(fd);
      free(p);
      free(final);
      errno = e;
      return NULL;
    }
    close(fd);
    return pend[npend - 1].tmp;
  }
  errno = ENOENT;
  return NULL;
}

const char *rtg_out_path(const char *path) {
  struct stat st;
  bool exists = stat(path, &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) {
    errno = EISDIR;
    return NULL;
  }
  if (exists && !S_ISREG(st.st_mode)) return path; /* a device or a pipe */
  size_t n = strlen(path);
  if (!n || path[n - 1] == '/') {
    errno = EISDIR;
    return NULL;
  }
  struct stat lst;
  char *final = NULL;
  if (exists && lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode))
    final = realpath(path, NULL); /* the link stays; its target is replaced */
  if (!final) final = strdup(path);
  char *tmp = final ? temp_name(final) : NULL;
  int fd = tmp ? mkstemp(tmp) : -1;
  if (fd < 0) {
    int e = tmp ? errno : ENOMEM;
    free(final);
    free(tmp);
    if (e == ENOENT) return inside_pending_dir(path);
    if ((e == EACCES || e == EPERM || e == EROFS) && exists && access(path, W_OK) == 0 &&
        truncate(path, 0) == 0)
      return path; /* a file the user may write in a directory they may not: in place */
    errno = e;
    return NULL;
  }
  fchmod(fd, exists ? st.st_mode & 07777 : new_mode(0666));
  close(fd);
  if (!add(final, tmp, false, NULL, false)) {
    unlink(tmp);
    return NULL;
  }
  return pend[npend - 1].tmp;
}

FILE *rtg_out_open(const char *path) {
  const char *p = rtg_out_path(path);
  if (!p) return NULL;
  /* (readable too where it may be: a writer may read back what it wrote) */
  int fd = open(p, O_RDWR | O_CLOEXEC);
  if (fd < 0 && errno == EACCES) fd = open(p, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return NULL;
  FILE *f = fdopen(fd, "wb");
  if (!f) {
    int e = errno;
    close(fd);
    errno = e;
  }
  return f;
}

bool rtg_out_close(FILE *f) {
  bool ok = fflush(f) == 0 && !ferror(f);
  if (!ok) rtg_out_note_error(errno);
  if (fclose(f)) {
    rtg_out_note_error(errno);
    ok = false;
  }
  return ok;
}

const char *rtg_out_dir(const char *path, void (*before)(const char *path)) {
  char *final = strdup(path);
  if (!final) return NULL;
  size_t n = strlen(final);
  while (n > 1 && final[n - 1] == '/') final[--n] = 0;
  struct stat st;
  char *tmp;
  bool exists = stat(final, &st) == 0;
  if (exists && !S_ISDIR(st.st_mode)) {
    free(final);
    errno = ENOTDIR;
    return NULL;
  }
  if (exists) { /* inside it: the same file system */
    tmp = malloc(n + 16);
    if (tmp) snprintf(tmp, n + 16, "%s/.rtg-XXXXXX", final);
  } else {
    tmp = errno == ENOENT ? temp_name(final) : NULL;
  }
  if (!tmp || !mkdtemp(tmp)) {
    int e = tmp ? errno : ENOENT;
    free(final);
    free(tmp);
    errno = e;
    return NULL;
  }
  if (!exists) chmod(tmp, new_mode(0777));
  if (!add(final, tmp, true, before, false)) {
    rmdir(tmp);
    return NULL;
  }
  return pend[npend - 1].tmp;
}

/* Moves the entries of directory src into directory dst, merging the
 * subdirectories both have; false after saying why. */
static bool merge(const char *src, const char *dst) {
  DIR *d = opendir(src);
  if (!d) {
    rtg_error("cannot read the new output: path=%s: %s", src, strerror(errno));
    return false;
  }
  bool ok = true;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    char s[PATH_MAX], t[PATH_MAX];
    if ((size_t)snprintf(s, sizeof s, "%s/%s", src, e->d_name) >= sizeof s ||
        (size_t)snprintf(t, sizeof t, "%s/%s", dst, e->d_name) >= sizeof t) {
      rtg_error("output path too long: %s/%s", dst, e->d_name);
      ok = false;
      continue;
    }
    struct stat ss, ts;
    if (lstat(s, &ss) == 0 && S_ISDIR(ss.st_mode) && lstat(t, &ts) == 0 && S_ISDIR(ts.st_mode)) {
      if (merge(s, t))
        rmdir(s);
      else
        ok = false;
    } else if (rename(s, t)) {
      rtg_error("cannot move the output into place: path=%s: %s (the new one is %s)", t,
                strerror(errno), s);
      ok = false;
    }
  }
  closedir(d);
  return ok;
}

static int remove_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw) {
  remove(p);
  return 0;
}

static void free_pending(void) {
  for (sig_atomic_t i = npend; i > 0; i--) {
    free(pend[i - 1].final);
    free(pend[i - 1].tmp);
  }
  npend = 0;
  first_error = 0;
}

bool rtg_out_commit(void) {
  bool ok = true;
  for (sig_atomic_t i = 0; i < npend; i++) {
    pending *p = &pend[i];
    if (p->inside) continue; /* (moved with its directory) */
    if (!p->dir) {
      if (rename(p->tmp, p->final)) {
        rtg_error("cannot rename the output into place: path=%s: %s (it is written in %s)",
                  p->final, strerror(errno), p->tmp);
        ok = false;
      }
      continue;
    }
    struct stat st;
    bool exists = stat(p->final, &st) == 0;
    if (exists && p->before) p->before(p->final);
    if (!exists && rename(p->tmp, p->final) == 0) continue;
    if (!merge(p->tmp, p->final))
      ok = false;
    else if (rmdir(p->tmp))
      nftw(p->tmp, remove_one, 16, FTW_DEPTH | FTW_PHYS);
  }
  free_pending();
  return ok;
}

void rtg_out_discard(void) {
  for (sig_atomic_t i = 0; i < npend; i++) {
    if (pend[i].dir)
      nftw(pend[i].tmp, remove_one, 16, FTW_DEPTH | FTW_PHYS);
    else if (!pend[i].inside)
      unlink(pend[i].tmp);
  }
  free_pending();
}
