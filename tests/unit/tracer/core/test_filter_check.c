/* The API filter check (src/tracer/core/filter_check.c): a word that selects
 * no name is said with the closest names (a keyword in the wrong case
 * first, then the fewest edits to a part of a name, the shorter name first);
 * words that select something, keywords and empty words are silent. */
#define _GNU_SOURCE
#include "check.h"
#include "core/filter_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static const char *const names[] = {"hipMalloc",      "hipMallocHost", "hipMemcpy", NULL,
                                    "hipMemcpyAsync", "hipFree",       "hipInit"};
static const char *const keywords[] = {"all", "core", NULL};
enum { N = sizeof names / sizeof *names };

/* What rtg_filter_check says on stderr for spec, and how many words. */
static char said[4096];
static int check(const char *spec) {
  fflush(stderr);
  int saved = dup(2);
  FILE *tmp = tmpfile();
  dup2(fileno(tmp), 2);
  int bad = rtg_filter_check("VAR", spec, "HIP", names, N, keywords);
  dup2(saved, 2);
  close(saved);
  rewind(tmp);
  size_t n = fread(said, 1, sizeof said - 1, tmp);
  said[n] = 0;
  fclose(tmp);
  return bad;
}

int main(void) {
  CHECK_U64(check("hipMalloc,Memcpy, all ,core,,Free"), 0);
  CHECK_STR(said, "");
  CHECK_U64(check(NULL), 0);
  CHECK_U64(check(""), 0);
  CHECK_U64(check("ALL"), 1);
  CHECK_STR(said, "rtg: VAR: \"ALL\" is part of no HIP function of this release; closest: all, "
                  "hipMalloc, hipMallocHost\n");
  CHECK_U64(check("hipmalloc"), 1);
  CHECK_STR(said, "rtg: VAR: \"hipmalloc\" is part of no HIP function of this release; closest: "
                  "hipMalloc, hipMallocHost, hipMemcpy\n");
  CHECK_U64(check("hipMemcopy, Core"), 2);
  CHECK_STR(said, "rtg: VAR: \"hipMemcopy\" is part of no HIP function of this release; closest: "
                  "hipMemcpy, hipMemcpyAsync, hipMalloc\n"
                  "rtg: VAR: \"Core\" is part of no HIP function of this release; closest: core, "
                  "hipFree, hipMalloc\n");
  /* a word longer than any name, and one of odd bytes: said, no overflow */
  char longw[300];
  memset(longw, 'x', sizeof longw - 1);
  longw[sizeof longw - 1] = 0;
  CHECK_U64(check(longw), 1);
  CHECK_U64(check("\xff\xfe"), 1);
  return check_done("test_filter_check");
}
