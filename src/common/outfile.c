/* Output files rewritten in place; see outfile.h. */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

FILE *rtg_out_open(const char *path) {
  /* (readable too where it may be: a writer may read back what it wrote) */
  int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (fd < 0 && errno == EACCES) fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
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
  bool ok = fflush(f) == 0;
  int fd = fileno(f);
  struct stat st;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    off_t end = lseek(fd, 0, SEEK_CUR);
    if (end < 0 || (end < st.st_size && ftruncate(fd, end) != 0)) ok = false;
  }
  return fclose(f) == 0 && ok;
}
