/* A line reader over read(2) with one growing buffer, so a 1 GB trace is
 * read in constant memory and a line is handed out without copying. */
#include "linereader.h"

#include "inrange.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CHUNK (1u << 20)

bool rtg_linereader_open(rtg_linereader *lr, const char *path) {
  const rtg_inrange *in;
  memset(lr, 0, sizeof *lr);
  lr->path = path;
  lr->line_max = RTG_LINE_MAX;
  lr->read_fn = read;
  if (!strcmp(path, "-")) {
    lr->fd = 0;
  } else if ((in = rtg_inrange_find(path))) {
    lr->fd = open(in->file, O_RDONLY | O_CLOEXEC);
    if (lr->fd < 0) return false;
    lr->own_fd = true;
    if (lseek(lr->fd, (off_t)in->off, SEEK_SET) < 0) {
      close(lr->fd);
      return false;
    }
    lr->ranged = true;
    lr->size = lr->range_left = in->size;
  } else {
    lr->fd = open(path, O_RDONLY | O_CLOEXEC);
    if (lr->fd < 0) return false;
    lr->own_fd = true;
    struct stat st;
    if (fstat(lr->fd, &st) == 0) {
      if (S_ISDIR(st.st_mode)) {
        close(lr->fd);
        errno = EISDIR;
        return false;
      }
      if (S_ISREG(st.st_mode)) lr->size = (uint64_t)st.st_size;
    }
#ifdef POSIX_FADV_SEQUENTIAL
    posix_fadvise(lr->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
  }
  lr->cap = 2 * CHUNK;
  lr->buf = malloc(lr->cap + 1);
  if (!lr->buf) {
    if (lr->own_fd) close(lr->fd);
    errno = ENOMEM;
    return false;
  }
  return true;
}

/* Make room and read more bytes; false at EOF or error. */
static bool fill(rtg_linereader *lr) {
  if (lr->eof) return false;
  if (lr->start > 0) {
    memmove(lr->buf, lr->buf + lr->start, lr->end - lr->start);
    lr->end -= lr->start;
    lr->start = 0;
  }
  if (lr->cap - lr->end < CHUNK / 2) {
    size_t ncap = lr->cap * 2;
    char *nb = realloc(lr->buf, ncap + 1);
    if (!nb) {
      lr->error = true;
      return false;
    }
    lr->buf = nb;
    lr->cap = ncap;
  }
  for (;;) {
    size_t want = lr->cap - lr->end;
    if (lr->ranged && want > lr->range_left) want = (size_t)lr->range_left;
    ssize_t n = want ? lr->read_fn(lr->fd, lr->buf + lr->end, want) : 0;
    if (n > 0) {
      if (lr->ranged) lr->range_left -= (uint64_t)n;
      lr->end += (size_t)n;
      lr->bytes_read += (uint64_t)n;
      return true;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) lr->error = true;
    lr->eof = true;
    return false;
  }
}

char *rtg_linereader_next(rtg_linereader *lr, size_t *len, bool *has_nul) {
  size_t scanned = 0;
  for (;;) {
    char *s = lr->buf + lr->start;
    size_t avail = lr->end - lr->start;
    char *nl = memchr(s + scanned, '\n', avail - scanned);
    if (!nl && lr->eof && avail > 0) { /* last line, no '\n' */
      nl = s + avail;
      lr->unterminated = true;
    }
    if (nl) {
      size_t n = (size_t)(nl - s);
      lr->start += n + (nl < lr->buf + lr->end ? 1 : 0);
      lr->lineno++;
      if (n > lr->line_max) {
        lr->too_long++;
        scanned = 0;
        continue;
      }
      s[n] = 0;
      if (n && s[n - 1] == '\r') s[--n] = 0;
      *len = n;
      if (has_nul) *has_nul = memchr(s, 0, n) != NULL;
      return s;
    }
    scanned = avail;
    if (avail > lr->line_max) {
      /* discard the head of a huge line, keep scanning for its end */
      lr->too_long++;
      for (;;) {
        lr->start = lr->end;
        if (!fill(lr)) {
          lr->lineno++;
          return NULL;
        }
        char *e = memchr(lr->buf + lr->start, '\n', lr->end - lr->start);
        if (e) {
          lr->start = (size_t)(e - lr->buf) + 1;
          lr->lineno++;
          break;
        }
      }
      scanned = 0;
      continue;
    }
    if (!fill(lr)) {
      if (lr->end > lr->start) continue; /* hand out the last partial line */
      return NULL;
    }
  }
}

void rtg_linereader_close(rtg_linereader *lr) {
  if (lr->own_fd && lr->fd >= 0) close(lr->fd);
  free(lr->buf);
  lr->buf = NULL;
  lr->fd = -1;
}
