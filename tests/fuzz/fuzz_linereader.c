/* libFuzzer target: the streaming line reader (src/common/linereader.c),
 * with the two settings its struct offers tests:
 *   - line_max is 64 instead of RTG_LINE_MAX (1 MB), so the huge-line paths
 *     (a long line seen whole, a line longer than the buffered data, one at
 *     the end of the file) run on small inputs;
 *   - read_fn is this file's fz_read, which hands the input out in chunks
 *     of a size chosen by the input, interrupted by EINTR now and then, and
 *     ends with EOF or EIO, so every buffer boundary is reached.
 * Input: byte 0 = chunk size (1..256), byte 1 = flags (bit 0: EINTR every
 * third call, bit 1: EIO instead of EOF at the end), then the file.
 * Oracle: a simple reference splitter over the same bytes: the same lines
 * (content, length, '\r' stripped, NUL flag), the same line numbers, the
 * same count of too-long lines, the error flag exactly when EIO. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "linereader.h"

enum { FZ_LINE_MAX = 64 };

static const unsigned char *fz_data;
static size_t fz_size, fz_pos, fz_chunk;
static unsigned fz_flags, fz_calls;

static ssize_t fz_read(int fd, void *buf, size_t n) {
  (void)fd;
  fz_calls++;
  if ((fz_flags & 1) && fz_calls % 3 == 0) {
    errno = EINTR;
    return -1;
  }
  if (fz_pos == fz_size) {
    if (fz_flags & 2) {
      errno = EIO;
      return -1;
    }
    return 0;
  }
  size_t k = fz_size - fz_pos;
  if (k > fz_chunk) k = fz_chunk;
  if (k > n) k = n;
  memcpy(buf, fz_data + fz_pos, k);
  fz_pos += k;
  return (ssize_t)k;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  if (size < 2) return 0;
  fz_chunk = (size_t)data[0] + 1;
  fz_flags = data[1];
  fz_data = data + 2;
  fz_size = size - 2;
  fz_pos = 0;
  fz_calls = 0;

  rtg_linereader lr;
  if (!rtg_linereader_open(&lr, "-")) abort(); /* "-": fd 0, never opened */
  lr.line_max = FZ_LINE_MAX;
  lr.read_fn = fz_read;

  /* reference: split at '\n'; a final piece without '\n' is a line when
   * not empty; lines over FZ_LINE_MAX are numbered but skipped */
  const unsigned char *p = fz_data, *end = fz_data + fz_size;
  uint64_t lineno = 0, too_long = 0;
  while (p < end) {
    const unsigned char *nl = memchr(p, '\n', (size_t)(end - p));
    size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
    lineno++;
    if (n > FZ_LINE_MAX) {
      too_long++;
    } else {
      size_t want = n && p[n - 1] == '\r' ? n - 1 : n;
      size_t len = 0;
      bool nul = false;
      char *got = rtg_linereader_next(&lr, &len, &nul);
      if (!got || len != want || memcmp(got, p, want) || got[len] != 0) abort();
      if (nul != (memchr(p, 0, want) != NULL)) abort();
      if (lr.lineno != lineno) abort();
    }
    p = nl ? nl + 1 : end;
  }
  size_t len;
  bool nul;
  if (rtg_linereader_next(&lr, &len, &nul) != NULL) abort();
  if (rtg_linereader_next(&lr, &len, &nul) != NULL) abort(); /* stays at the end */
  if (lr.lineno != lineno || lr.too_long != too_long) abort();
  if (lr.error != ((fz_flags & 2) != 0)) abort();
  rtg_linereader_close(&lr);
  return 0;
}
