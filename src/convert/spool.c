/* Output held back in memory or in a temporary file; see spool.h. */
#define _GNU_SOURCE
#include "spool.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

#define DEFAULT_BUDGET (64u << 20)

size_t spool_budget_setting(void) {
  const char *e = getenv("RTG_CONVERT_PF_MEM");
  if (e && *e) {
    char *end;
    unsigned long long v = strtoull(e, &end, 10);
    if (!*end) return (size_t)v;
  }
  return DEFAULT_BUDGET;
}

void spool_init(spool *s, const char *near, FILE *out, size_t *held, size_t budget) {
  memset(s, 0, sizeof *s);
  s->near = near, s->out = out, s->held = held, s->budget = budget;
}

static bool write_all(int fd, const uint8_t *b, size_t n) {
  while (n) {
    ssize_t k = write(fd, b, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return false;
    b += k, n -= (size_t)k;
  }
  return true;
}

/* A temporary file beside a regular output file (on its file system, which
 * has room for the output; /tmp may be memory), removed at once; else
 * tmpfile(). */
static FILE *tmp_near(const char *path, FILE *out) {
  char t[4096];
  struct stat sb;
  const char *slash = strrchr(path, '/');
  int n = fstat(fileno(out), &sb) || !S_ISREG(sb.st_mode) ? -1
          : slash ? snprintf(t, sizeof t, "%.*s/.rtg-pftrace-XXXXXX", (int)(slash - path), path)
                  : snprintf(t, sizeof t, ".rtg-pftrace-XXXXXX");
  if (n > 0 && (size_t)n < sizeof t) {
    int fd = mkstemp(t);
    if (fd >= 0) {
      unlink(t);
      FILE *f = fdopen(fd, "w+b");
      if (f) return f;
      close(fd);
    }
  }
  return tmpfile();
}

/* From now on the spool lives in a file: the chunks held so far go first. */
static bool spill(spool *s) {
  if (!s->file && !(s->file = tmp_near(s->near, s->out))) return s->failed = true, false;
  for (uint32_t i = 0; i < s->n; i++) {
    if (!write_all(fileno(s->file), s->chunk[i].buf, s->chunk[i].len)) s->failed = true;
    *s->held -= s->chunk[i].len;
    free(s->chunk[i].buf);
  }
  s->n = 0;
  return !s->failed;
}

bool spool_put(spool *s, uint8_t **buf, size_t len, size_t cap) {
  if (!len) return true;
  if (!s->file && *s->held + len <= s->budget) {
    if (s->n == s->cap) {
      uint32_t nc = s->cap ? s->cap * 2 : 16;
      spool_chunk *c = realloc(s->chunk, nc * sizeof *c);
      if (c) s->chunk = c, s->cap = nc;
    }
    uint8_t *fresh = s->n < s->cap ? malloc(cap) : NULL;
    if (fresh) {
      s->chunk[s->n++] = (spool_chunk){*buf, len};
      *s->held += len;
      *buf = fresh;
      return true;
    }
  }
  if (!spill(s)) return false;
  if (!write_all(fileno(s->file), *buf, len)) s->failed = true;
  return !s->failed;
}

/* The spilled part: copied by the kernel (sendfile), or through the bounce
 * buffer where it cannot. */
static bool copy_file(FILE *f, int out, uint8_t *bounce, size_t cap) {
  int in = fileno(f);
  off_t size = lseek(in, 0, SEEK_END), off = 0;
  if (size < 0) return false;
  while (off < size) {
    ssize_t k = sendfile(out, in, &off, (size_t)(size - off));
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) break;
  }
  while (off < size) {
    ssize_t k = pread(in, bounce, cap, off);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0 || !write_all(out, bounce, (size_t)k)) return false;
    off += k;
  }
  return true;
}

bool spool_write(spool *s, int fd, uint8_t *bounce, size_t bounce_cap) {
  bool ok = !s->failed;
  if (s->file && !copy_file(s->file, fd, bounce, bounce_cap)) ok = false;
  for (uint32_t i = 0; ok && i < s->n; i++) ok = write_all(fd, s->chunk[i].buf, s->chunk[i].len);
  return ok;
}

void spool_free(spool *s) {
  for (uint32_t i = 0; i < s->n; i++) {
    *s->held -= s->chunk[i].len;
    free(s->chunk[i].buf);
  }
  free(s->chunk);
  if (s->file) fclose(s->file);
  memset(s, 0, sizeof *s);
}
