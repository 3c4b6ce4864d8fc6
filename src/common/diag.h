/* Messages of the offline tools, in one style:
 *   rtg-convert: warning: rtg_trace.txt.123:45: missing pid:/tid: (skipped)
 *   rtg-convert: error: cannot open file: path=x.txt: No such file or directory
 * Warnings about input lines are rate-limited per file (the first
 * RTG_DIAG_PER_FILE, then one "further warnings suppressed" line); every
 * skipped line is still counted for the summary. */
#ifndef RTG_DIAG_H
#define RTG_DIAG_H

#include <stdint.h>

#define RTG_DIAG_PER_FILE 10

void rtg_diag_set_program(const char *name);

void rtg_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void rtg_warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A failure the tool cannot go on after: "PROGRAM: error: MESSAGE (at
 * FILE:LINE): strerror(err)" (no strerror when err is 0), then exit
 * status 1.  rtg_die names the caller's source line. */
_Noreturn void rtg_die_at(const char *file, int line, int err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
#define rtg_die(err, ...) rtg_die_at(__FILE__, __LINE__, err, __VA_ARGS__)

/* Per-input-file warning state. */
typedef struct rtg_diag_file {
  const char *path;
  uint64_t warnings; /* lines warned about (shown or not) */
} rtg_diag_file;

/* A bad line in an input file: printed unless rate-limited. */
void rtg_warn_line(rtg_diag_file *f, uint64_t line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* When set (e.g. by -q), warnings are counted but not printed. */
extern int rtg_diag_quiet;

#endif
