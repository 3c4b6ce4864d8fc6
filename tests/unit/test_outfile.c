/* Outputs under a temporary name, renamed on success (outfile.h): an
 * existing file keeps its bytes until the commit and after a discard; no
 * temporary file is left either way; its mode and a symbolic link to it
 * stay; a device is written as it is; a directory output merges into an
 * existing directory, keeping its other files, or becomes a new one; a
 * file in a directory output not made yet moves with it. */
#include <dirent.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "outfile.h"

static void write_file(const char *path, const char *s) {
  FILE *f = fopen(path, "wb");
  fputs(s, f);
  fclose(f);
}

/* The whole (short) file, or "" when missing. */
static const char *text_of(const char *path) {
  static char buf[256];
  memset(buf, 0, sizeof buf);
  FILE *f = fopen(path, "rb");
  if (!f) return "";
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  buf[n] = 0;
  fclose(f);
  return buf;
}

/* Entries of dir whose names begin with '.' (temporary ones). */
static int hidden_in(const char *dir) {
  DIR *d = opendir(dir);
  struct dirent *e;
  int n = 0;
  while (d && (e = readdir(d)))
    if (e->d_name[0] == '.' && strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
  if (d) closedir(d);
  return n;
}

static int before_calls;
static void before(const char *path) {
  before_calls++;
  CHECK_STR(path, "dir");
}

int main(void) {
  /* an existing file: untouched until the commit */
  write_file("out.txt", "old text, longer than the new one\n");
  chmod("out.txt", 0640);
  FILE *f = rtg_out_open("out.txt");
  CHECK(f != NULL);
  fputs("new\n", f);
  CHECK(rtg_out_close(f));
  CHECK_STR(text_of("out.txt"), "old text, longer than the new one\n");
  CHECK(hidden_in(".") == 1);
  CHECK(rtg_out_commit());
  CHECK_STR(text_of("out.txt"), "new\n");
  CHECK(hidden_in(".") == 0);
  struct stat st;
  CHECK(stat("out.txt", &st) == 0 && (st.st_mode & 0777) == 0640);

  /* discarded: the old bytes stay, the temporary file goes */
  f = rtg_out_open("out.txt");
  fputs("never\n", f);
  CHECK(rtg_out_close(f));
  rtg_out_discard();
  CHECK_STR(text_of("out.txt"), "new\n");
  CHECK(hidden_in(".") == 0);

  /* written partly through the descriptor after a flush (the Perfetto
   * sink's spools) */
  f = rtg_out_open("out.txt");
  fputs("head ", f);
  fflush(f);
  CHECK(write(fileno(f), "body", 4) == 4);
  CHECK(rtg_out_close(f));
  CHECK(rtg_out_commit());
  CHECK_STR(text_of("out.txt"), "head body");

  /* through a symbolic link: the target is replaced, the link stays */
  CHECK(symlink("out.txt", "link.txt") == 0);
  f = rtg_out_open("link.txt");
  fputs("via link", f);
  CHECK(rtg_out_close(f));
  CHECK(rtg_out_commit());
  CHECK(lstat("link.txt", &st) == 0 && S_ISLNK(st.st_mode));
  CHECK_STR(text_of("out.txt"), "via link");

  /* a missing directory, a directory: NULL with errno */
  errno = 0;
  CHECK(rtg_out_open("no/such/dir/x.txt") == NULL && errno == ENOENT);
  CHECK(rtg_out_open(".") == NULL && errno == EISDIR);

  /* not a regular file: written directly */
  const char *p = rtg_out_path("/dev/null");
  CHECK(p && !strcmp(p, "/dev/null"));
  f = rtg_out_open("/dev/null");
  CHECK(f != NULL);
  fputs("x", f);
  CHECK(rtg_out_close(f));
  CHECK(rtg_out_commit());

  /* a write error is said with its reason */
  f = rtg_out_open("/dev/full");
  CHECK(f != NULL);
  fputs("x", f);
  CHECK(!rtg_out_close(f));
  CHECK_STR(rtg_out_why(), strerror(ENOSPC));
  rtg_out_discard();

  /* a directory output into an existing directory: merged at the commit,
   * other files kept, the callback first */
  CHECK(mkdir("dir", 0777) == 0);
  write_file("dir/mine.txt", "mine");
  write_file("dir/a.csv", "old a");
  const char *d = rtg_out_dir("dir", before);
  CHECK(d != NULL);
  char path[512];
  snprintf(path, sizeof path, "%s/a.csv", d);
  write_file(path, "new a");
  snprintf(path, sizeof path, "%s/sub", d);
  CHECK(mkdir(path, 0777) == 0);
  snprintf(path, sizeof path, "%s/sub/b.csv", d);
  write_file(path, "new b");
  CHECK_STR(text_of("dir/a.csv"), "old a");
  CHECK(rtg_out_commit());
  CHECK(before_calls == 1);
  CHECK_STR(text_of("dir/a.csv"), "new a");
  CHECK_STR(text_of("dir/sub/b.csv"), "new b");
  CHECK_STR(text_of("dir/mine.txt"), "mine");
  CHECK(hidden_in("dir") == 0);

  /* discarded: nothing changes */
  d = rtg_out_dir("dir", NULL);
  snprintf(path, sizeof path, "%s/a.csv", d);
  write_file(path, "never");
  rtg_out_discard();
  CHECK_STR(text_of("dir/a.csv"), "new a");
  CHECK(hidden_in("dir") == 0);

  /* a new directory, with a file output inside it made by the same run */
  d = rtg_out_dir("newdir", NULL);
  CHECK(d != NULL && access("newdir", F_OK) != 0);
  p = rtg_out_path("newdir/gaps.txt");
  CHECK(p != NULL);
  write_file(p, "gaps");
  CHECK(rtg_out_commit());
  CHECK_STR(text_of("newdir/gaps.txt"), "gaps");
  CHECK(hidden_in(".") == 0);

  /* a directory output where a file is */
  CHECK(rtg_out_dir("out.txt", NULL) == NULL && errno == ENOTDIR);
  return check_done("test_outfile");
}
