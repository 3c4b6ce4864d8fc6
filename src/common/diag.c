/* Error and warning output for the offline tools. */
#include "diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *program = "rtg";
int rtg_diag_quiet;

void rtg_diag_set_program(const char *name) {
  program = name;
}

static void vmsg(const char *level, const char *fmt, va_list ap) {
  fprintf(stderr, "%s: %s: ", program, level);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
}

void rtg_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vmsg("error", fmt, ap);
  va_end(ap);
}

void rtg_die_at(const char *file, int line, int err, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "%s: error: ", program);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, " (at %s:%d)", file, line);
  if (err) fprintf(stderr, ": %s", strerror(err));
  fputc('\n', stderr);
  exit(1);
}

void rtg_warning(const char *fmt, ...) {
  if (rtg_diag_quiet) return;
  va_list ap;
  va_start(ap, fmt);
  vmsg("warning", fmt, ap);
  va_end(ap);
}

void rtg_warn_line(rtg_diag_file *f, uint64_t line, const char *fmt, ...) {
  uint64_t n = ++f->warnings;
  if (rtg_diag_quiet || n > RTG_DIAG_PER_FILE + 1) return;
  if (n == RTG_DIAG_PER_FILE + 1) {
    fprintf(stderr, "%s: warning: %s: further warnings for this file suppressed\n", program,
            f->path);
    return;
  }
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "%s: warning: %s:%llu: ", program, f->path, (unsigned long long)line);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}
