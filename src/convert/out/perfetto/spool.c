/* Output held back in memory or in a temporary file; see spool.h. */
#define _GNU_SOURCE
#include "spool.h"

#include "outfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

#define DEFAULT_BUDGET (32u << 20)
#define MAX_SLAB (8u << 20)
#define MIN_SLAB (64u << 10)
#define FIRST_SLAB (1u << 20)
#define HUGE_SLAB (2u << 20) /* a huge page */

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
  s->in_place = -1;
  s->near = near, s->out = out, s->held = held, s->budget = budget;
  s->slab_size = budget / 8 > MAX_SLAB ? MAX_SLAB : budget / 8 < MIN_SLAB ? MIN_SLAB : budget / 8;
}

void spool_init_in_place(spool *s, FILE *f, uint64_t base) {
  memset(s, 0, sizeof *s);
  s->in_place = fileno(f);
  s->base = base;
  s->bgf = f;
  if (fseeko(f, (off_t)base, SEEK_SET)) s->failed = true;
  /* (two buffers in turn: the writer copies one out faster than the other
   * fills, and a third would be fresh memory, a page fault per 4 KB) */
  s->bg = rtg_bgw_new(1, true);
  if (s->bg && !rtg_bgw_threaded(s->bg)) {
    rtg_bgw_free(s->bg);
    s->bg = NULL;
  }
}

/* A buffer of SPOOL_GIVE_CAP for the next bytes: a new one the first
 * time, else one the writer has written. */
static uint8_t *give_buf(spool *s) {
  uint8_t *b = s->nbuf < 1 ? malloc(SPOOL_GIVE_CAP) : NULL;
  if (b) {
    s->nbuf++;
    return b;
  }
  return (uint8_t *)rtg_bgw_take(s->bg);
}

bool spool_settle(spool *s) {
  if (!s->bg) return !s->failed;
  if (!rtg_bgw_free(s->bg)) s->failed = true;
  s->bg = NULL;
  if (fflush(s->bgf) || lseek(s->in_place, 0, SEEK_SET) < 0) {
    rtg_out_note_error(errno);
    s->failed = true;
  }
  return !s->failed;
}

bool spool_give(spool *s, uint8_t **buf, size_t *cap, size_t len) {
  if (!s->bg) return spool_put(s, *buf, len);
  s->size += len;
  if (*cap == SPOOL_GIVE_CAP) { /* handed over as it is */
    rtg_bgw_put(s->bg, s->bgf, (char *)*buf, len);
    *buf = give_buf(s);
    return true;
  }
  for (size_t off = 0; off < len;) { /* copied, a buffer at a time */
    size_t n = len - off < SPOOL_GIVE_CAP ? len - off : SPOOL_GIVE_CAP;
    uint8_t *b = give_buf(s);
    memcpy(b, *buf + off, n);
    rtg_bgw_put(s->bg, s->bgf, (char *)b, n);
    off += n;
  }
  return true;
}

static bool pwrite_all(int fd, const uint8_t *b, size_t n, uint64_t off) {
  while (n) {
    ssize_t k = pwrite(fd, b, n, (off_t)off);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return rtg_out_note_error(k < 0 ? errno : ENOSPC), false;
    b += k, n -= (size_t)k, off += (uint64_t)k;
  }
  return true;
}

static bool pread_all(int fd, uint8_t *b, size_t n, uint64_t off) {
  while (n) {
    ssize_t k = pread(fd, b, n, (off_t)off);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return rtg_out_note_error(k < 0 ? errno : ENOSPC), false;
    b += k, n -= (size_t)k, off += (uint64_t)k;
  }
  return true;
}

/* From the end down, a bounce buffer at a time: each piece is read before
 * anything is written over it (to > base). */
bool spool_move(spool *s, uint64_t to, uint8_t *bounce, size_t bounce_cap) {
  if (!spool_settle(s)) return false;
  for (uint64_t end = s->size; end > 0 && to > s->base;) {
    size_t n = end < bounce_cap ? (size_t)end : bounce_cap;
    end -= n;
    if (!pread_all(s->in_place, bounce, n, s->base + end) ||
        !pwrite_all(s->in_place, bounce, n, end + to))
      return s->failed = true, false;
  }
  return true;
}

static bool write_all(int fd, const uint8_t *b, size_t n) {
  while (n) {
    ssize_t k = write(fd, b, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return rtg_out_note_error(k < 0 ? errno : ENOSPC), false;
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

static uint8_t *slab_new(size_t size) {
  void *m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) return NULL;
#ifdef MADV_HUGEPAGE
  if (size >= HUGE_SLAB) madvise(m, size, MADV_HUGEPAGE); /* (advice: else 4 KB pages) */
#endif
  return m;
}

/* The size of slab i: the first one small, so that a small output does
 * not clear a huge page it does not fill. */
static size_t slab_cap(const spool *s, uint32_t i) {
  return i || s->slab_size < FIRST_SLAB ? s->slab_size : FIRST_SLAB;
}

/* The bytes in slab i. */
static size_t slab_len(const spool *s, uint32_t i) {
  return i + 1 < s->nslab ? slab_cap(s, i) : s->used;
}

static void slabs_free(spool *s) {
  for (uint32_t i = 0; i < s->nslab; i++) {
    munmap(s->slab[i], slab_cap(s, i));
    *s->held -= slab_cap(s, i);
  }
  s->nslab = 0;
  s->used = 0;
}

/* From now on the spool lives in a file: the slabs so far go first. */
static bool spill(spool *s) {
  if (!s->file && !(s->file = tmp_near(s->near, s->out))) return s->failed = true, false;
  for (uint32_t i = 0; i < s->nslab && !s->failed; i++)
    if (!write_all(fileno(s->file), s->slab[i], slab_len(s, i))) s->failed = true;
  slabs_free(s);
  return !s->failed;
}

/* Room for more in memory: a new slab when the last is full; false when
 * the budget or memory says no. */
static bool room(spool *s) {
  if (s->nslab && s->used < slab_cap(s, s->nslab - 1)) return true;
  size_t cap = slab_cap(s, s->nslab);
  if (*s->held + cap > s->budget) return false;
  if (s->nslab == s->cap) {
    uint32_t nc = s->cap ? s->cap * 2 : 8;
    uint8_t **n = realloc(s->slab, nc * sizeof *n);
    if (!n) return false;
    s->slab = n, s->cap = nc;
  }
  uint8_t *m = slab_new(cap);
  if (!m) return false;
  s->slab[s->nslab++] = m;
  s->used = 0;
  *s->held += cap;
  return true;
}

bool spool_put(spool *s, const uint8_t *b, size_t len) {
  if (s->in_place >= 0) {
    if (!s->failed && !pwrite_all(s->in_place, b, len, s->base + s->size)) s->failed = true;
    s->size += len;
    return !s->failed;
  }
  s->size += len;
  while (len && !s->file && room(s)) {
    size_t left = slab_cap(s, s->nslab - 1) - s->used;
    size_t k = left < len ? left : len;
    memcpy(s->slab[s->nslab - 1] + s->used, b, k);
    s->used += k, b += k, len -= k;
  }
  if (!len) return true;
  if (!spill(s)) return false;
  if (!write_all(fileno(s->file), b, len)) s->failed = true;
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
    if (k <= 0 || !write_all(out, bounce, (size_t)k)) return rtg_out_note_error(errno), false;
    off += k;
  }
  return true;
}

bool spool_write(spool *s, int fd, uint8_t *bounce, size_t bounce_cap) {
  bool ok = !s->failed;
  if (s->file && !copy_file(s->file, fd, bounce, bounce_cap)) ok = false;
  for (uint32_t i = 0; ok && i < s->nslab; i++) ok = write_all(fd, s->slab[i], slab_len(s, i));
  return ok;
}

void spool_free(spool *s) {
  if (s->in_place >= 0) {
    if (s->bg) rtg_bgw_free(s->bg);
    memset(s, 0, sizeof *s);
    return;
  }
  slabs_free(s);
  free(s->slab);
  if (s->file) fclose(s->file);
  memset(s, 0, sizeof *s);
}
