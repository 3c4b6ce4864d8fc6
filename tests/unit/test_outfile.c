/* Output files rewritten in place (outfile.h): an existing longer file is
 * cut to what was written, through the FILE and through its descriptor;
 * a shorter one grows; a device is written as it is. */
#include <unistd.h>

#include "check.h"
#include "outfile.h"

static long size_of(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fclose(f);
  return n;
}

static void write_file(const char *path, const char *s) {
  FILE *f = fopen(path, "wb");
  fputs(s, f);
  fclose(f);
}

int main(void) {
  write_file("out.txt", "old text, longer than the new one\n");
  FILE *f = rtg_out_open("out.txt");
  CHECK(f != NULL);
  fputs("new\n", f);
  CHECK(rtg_out_close(f));
  CHECK(size_of("out.txt") == 4);
  char buf[64] = {0};
  f = fopen("out.txt", "rb");
  CHECK(fread(buf, 1, sizeof buf - 1, f) == 4);
  fclose(f);
  CHECK_STR(buf, "new\n");

  /* written partly through the descriptor after a flush (the Perfetto
   * sink's spools) */
  write_file("out.txt", "0123456789012345678901234567890123456789");
  f = rtg_out_open("out.txt");
  fputs("head ", f);
  fflush(f);
  CHECK(write(fileno(f), "body", 4) == 4);
  CHECK(rtg_out_close(f));
  CHECK(size_of("out.txt") == 9);

  /* a new file, and one that grows */
  unlink("new.txt");
  f = rtg_out_open("new.txt");
  fputs("0123456789", f);
  CHECK(rtg_out_close(f));
  CHECK(size_of("new.txt") == 10);
  f = rtg_out_open("new.txt");
  fputs("01234567890123456789", f);
  CHECK(rtg_out_close(f));
  CHECK(size_of("new.txt") == 20);

  /* not a regular file: nothing to cut */
  f = rtg_out_open("/dev/null");
  CHECK(f != NULL);
  fputs("x", f);
  CHECK(rtg_out_close(f));

  /* a directory cannot be opened */
  CHECK(rtg_out_open(".") == NULL);
  return check_done("test_outfile");
}
