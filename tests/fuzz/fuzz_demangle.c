/* libFuzzer target: the demangler (src/common/demangle.c).  Each input
 * line is one name, tried as it is and with "_Z" in front (so most inputs
 * reach the grammar), each from a copy of exactly its length (no NUL after
 * it: ASan sees any read past the input).
 * Oracles:
 *   - the result is NULL or a NUL-terminated text of at most
 *     RTG_DEMANGLE_MAX_OUT bytes, without control characters;
 *   - the same name demangles to the same text twice (no state is kept
 *     between calls);
 *   - a name that does not start with "_Z" gives NULL. */
#include "demangle.h"

#include <stdlib.h>
#include <string.h>

static char *demangle_copy(const char *s, size_t n) {
  char *copy = malloc(n ? n : 1);
  if (!copy) return NULL;
  memcpy(copy, s, n);
  char *r = rtg_demangle(copy, n);
  free(copy);
  return r;
}

static void check_name(const char *s, size_t n) {
  char *a = demangle_copy(s, n);
  if (!a) return;
  if (n < 2 || s[0] != '_' || s[1] != 'Z') abort();
  size_t len = strlen(a);
  if (len == 0 || len > RTG_DEMANGLE_MAX_OUT) abort();
  for (size_t k = 0; k < len; k++)
    if ((unsigned char)a[k] < 0x20 || a[k] == 0x7f) abort();
  char *b = demangle_copy(s, n);
  if (!b || strcmp(a, b)) abort();
  free(a);
  free(b);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  size_t pos = 0;
  while (pos < size) {
    const unsigned char *nl = memchr(data + pos, '\n', size - pos);
    size_t n = nl ? (size_t)(nl - (data + pos)) : size - pos;
    const char *line = (const char *)data + pos;
    check_name(line, n);
    char *z = malloc(n + 2);
    if (!z) return 0;
    memcpy(z, "_Z", 2);
    memcpy(z + 2, line, n);
    check_name(z, n + 2);
    free(z);
    pos += n + 1;
  }
  return 0;
}
