/* --split-size: the parts' names, the whole output's temporary file and
 * the index of the parts (split.h). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "convert.h"
#include "outfile.h"
#include "split.h"
#include "xalloc.h"

static size_t stem_len(const char *out) {
  const char *slash = strrchr(out, '/');
  const char *base = slash ? slash + 1 : out;
  const char *dot = strrchr(base, '.');
  return (size_t)((dot && dot != base ? dot : base + strlen(base)) - out);
}

char *cv_split_name(const char *out, const char *what) {
  size_t stem = stem_len(out), n = strlen(out) + strlen(what) + 2;
  char *s = rtg_xmalloc(n, "the split output's names");
  snprintf(s, n, "%.*s.%s%s", (int)stem, out, what, out + stem);
  return s;
}

FILE *cv_split_whole(const char *out) {
  const char *slash = strrchr(out, '/');
  size_t dir = slash ? (size_t)(slash - out + 1) : 0;
  size_t n = strlen(out) + 32;
  char *tmp = rtg_xmalloc(n, "the split output's names");
  snprintf(tmp, n, "%.*s.%s.rtg-split-XXXXXX", (int)dir, out, out + dir);
  int fd = mkstemp(tmp);
  FILE *f = NULL;
  if (fd >= 0) {
    unlink(tmp);
    f = fdopen(fd, "w+");
    if (!f) close(fd);
  }
  free(tmp);
  return f;
}

static void put_us(FILE *f, uint64_t ns) {
  fprintf(f, "%" PRIu64 ".%03u", ns / 1000, (unsigned)(ns % 1000));
}

/* a file name as a JSON string */
static void put_name(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    unsigned char ch = (unsigned char)*s;
    if (ch == '"' || ch == '\\')
      fprintf(f, "\\%c", ch);
    else if (ch < 0x20)
      fprintf(f, "\\u%04x", ch);
    else
      fputc(ch, f);
  }
  fputc('"', f);
}

static const char *base_name(const char *p) {
  const char *b = strrchr(p, '/');
  return b ? b + 1 : p;
}

bool cv_split_report(const char *out, uint64_t size, size_t nparts, char *const *names,
                     const cv_split_part *parts, bool quiet) {
  for (size_t k = 0; k < nparts && !quiet; k++) {
    fprintf(stderr, "rtg-convert: %s: %" PRIu64 " events, ", names[k], parts[k].events);
    put_us(stderr, parts[k].from);
    fputs(" .. ", stderr);
    put_us(stderr, parts[k].to);
    fprintf(stderr, " us, %" PRIu64 " bytes\n", parts[k].bytes);
  }
  size_t stem = stem_len(out), n = stem + 16;
  char *iname = rtg_xmalloc(n, "the split output's names");
  snprintf(iname, n, "%.*s.index.json", (int)stem, out);
  FILE *ix = rtg_out_open(iname);
  if (!ix) {
    rtg_error("cannot create output: path=%s: %m", iname);
    free(iname);
    return false;
  }
  fputs("{\"split_of\":", ix);
  put_name(ix, base_name(out));
  fprintf(ix, ",\"split_size\":%" PRIu64 ",\"parts\":[\n", size);
  for (size_t k = 0; k < nparts; k++) {
    fputs(k ? ",\n{\"file\":" : "{\"file\":", ix);
    put_name(ix, base_name(names[k]));
    fputs(",\"from_us\":", ix);
    put_us(ix, parts[k].from);
    fputs(",\"last_start_us\":", ix);
    put_us(ix, parts[k].last);
    fputs(",\"to_us\":", ix);
    put_us(ix, parts[k].to);
    fprintf(ix, ",\"bytes\":%" PRIu64 ",\"events\":%" PRIu64 "}", parts[k].bytes, parts[k].events);
  }
  fputs("\n]}\n", ix);
  bool ok = rtg_out_close(ix);
  if (!ok)
    rtg_error("cannot write output: path=%s: %s", iname, rtg_out_why());
  else if (!quiet)
    fprintf(stderr, "rtg-convert: %s: %zu parts\n", iname, nparts);
  free(iname);
  return ok;
}
