/* The line reader on the inputs broken traces contain: no final newline,
 * CRLF, NUL bytes, a line longer than RTG_LINE_MAX, an empty file. */
#include "check.h"
#include "linereader.h"

#include <stdlib.h>

static void write_file(const char *path, const char *data, size_t n) {
  FILE *f = fopen(path, "wb");
  fwrite(data, 1, n, f);
  fclose(f);
}

int main(void) {
  rtg_linereader lr;
  size_t len;
  bool nul;

  write_file("a.txt", "one\ntwo\r\nthr\0ee\nlast", 20);
  CHECK(rtg_linereader_open(&lr, "a.txt"));
  CHECK_STR(rtg_linereader_next(&lr, &len, &nul), "one");
  CHECK(!nul);
  CHECK_STR(rtg_linereader_next(&lr, &len, &nul), "two");
  char *l = rtg_linereader_next(&lr, &len, &nul);
  CHECK(l && len == 6 && nul);
  CHECK(!lr.unterminated);
  CHECK_STR(rtg_linereader_next(&lr, &len, &nul), "last");
  CHECK(lr.unterminated); /* no '\n' after the last line */
  CHECK_U64(lr.lineno, 4);
  CHECK(rtg_linereader_next(&lr, &len, &nul) == NULL);
  rtg_linereader_close(&lr);

  /* a huge line between two normal ones is skipped and counted */
  size_t big = RTG_LINE_MAX * 3 + 5;
  char *data = malloc(big + 32);
  size_t n = 0;
  n += (size_t)sprintf(data + n, "first\n");
  memset(data + n, 'x', big);
  n += big;
  n += (size_t)sprintf(data + n, "\nafter\n");
  write_file("b.txt", data, n);
  free(data);
  CHECK(rtg_linereader_open(&lr, "b.txt"));
  CHECK_STR(rtg_linereader_next(&lr, &len, &nul), "first");
  CHECK_STR(rtg_linereader_next(&lr, &len, &nul), "after");
  CHECK_U64(lr.lineno, 3);
  CHECK_U64(lr.too_long, 1);
  CHECK(rtg_linereader_next(&lr, &len, &nul) == NULL);
  CHECK(!lr.unterminated); /* ends with '\n' */
  rtg_linereader_close(&lr);

  /* many lines crossing buffer refills keep their numbering */
  FILE *f = fopen("c.txt", "w");
  for (int i = 0; i < 300000; i++) fprintf(f, "line %d\n", i);
  fclose(f);
  CHECK(rtg_linereader_open(&lr, "c.txt"));
  int bad = 0, count = 0;
  while ((l = rtg_linereader_next(&lr, &len, &nul))) {
    char want[32];
    snprintf(want, sizeof want, "line %d", count++);
    bad += strcmp(l, want) != 0;
  }
  CHECK(bad == 0 && count == 300000);
  rtg_linereader_close(&lr);

  write_file("empty.txt", "", 0);
  CHECK(rtg_linereader_open(&lr, "empty.txt"));
  CHECK(rtg_linereader_next(&lr, &len, &nul) == NULL);
  rtg_linereader_close(&lr);
  CHECK(!rtg_linereader_open(&lr, "missing.txt"));
  CHECK(!rtg_linereader_open(&lr, "."));
  return check_done("test_linereader");
}
