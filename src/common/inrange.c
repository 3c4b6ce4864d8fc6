/* Inputs that are a byte range of another file; see inrange.h. */
#include "inrange.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

static const rtg_inrange *ranges;
static size_t nranges, last;

void rtg_inrange_set(const rtg_inrange *r, size_t n) {
  ranges = r;
  nranges = n;
  last = 0;
}

/* The inputs are read in order, each several times in a row, and named by
 * the pointers registered (a file of that name elsewhere is not a range):
 * the last range, its next one, then any. */
const rtg_inrange *rtg_inrange_find(const char *name) {
  if (!nranges || !name) return NULL;
  for (size_t k = 0; k < 2; k++)
    if (last + k < nranges && ranges[last + k].name == name) return &ranges[last += k];
  for (size_t i = 0; i < nranges; i++)
    if (ranges[i].name == name) return &ranges[last = i];
  return NULL;
}

int rtg_inrange_open(const char *name, uint64_t *base, uint64_t *size) {
  const rtg_inrange *r = rtg_inrange_find(name);
  int fd = open(r ? r->file : name, O_RDONLY | O_CLOEXEC);
  *base = 0;
  *size = UINT64_MAX;
  if (fd < 0) return -1;
  if (r) {
    *base = r->off;
    *size = r->size;
    return fd;
  }
  struct stat st;
  if (!fstat(fd, &st) && S_ISREG(st.st_mode)) *size = (uint64_t)st.st_size;
  return fd;
}
