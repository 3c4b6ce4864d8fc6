/* The parts of rtg-trace (main.c runs them in this order):
 *   options.c  the command line: one table from options to environment
 *              variables, and what the launcher itself is asked to do
 *   setup.c    the tracer library, --hip-table's preload, the traces' path
 *   signals.c  SIGTERM/SIGINT/SIGHUP forwarded to the application
 *   after.c    after the run: the traces it wrote, rtg-convert and rpt
 *   launcher.c what they share: the launcher's directory, its failure
 *              messages, its changes to the environment
 * Every failure says on stderr what failed, on which file, and errno's
 * text (rtg_fail()). */
#ifndef RTG_TRACE_LAUNCHER_H
#define RTG_TRACE_LAUNCHER_H

#include <limits.h>
#include <stddef.h>
#include <sys/types.h>
#include <time.h>

/* What the command line asks of the launcher itself (the rest went into
 * the environment). */
typedef struct launch {
  const char *outdir, *filename, *tracer;
  const char *convert; /* NULL: no conversion; "": the default file */
  const char *analyze; /* NULL: none; "": print it; else also its JSON file */
  const char *html;    /* NULL: none; "": the default file */
  int stats, rpt, table;
  int program;         /* argv index of the program */
  char list[PATH_MAX]; /* RTG_TRACE_LIST: the traces the tree opened; "": none */
} launch;

/* The directory rtg-trace is in (the tracer and the tools are found from
 * it), set by rtg_find_self_dir (launcher.c, with rtg_setenv and
 * rtg_fail). */
extern char rtg_self_dir[PATH_MAX];
void rtg_find_self_dir(void);

/* options.c: parse argv into the environment and *l.  Returns -1 to go
 * on, else the exit status (0 after --help or --version, 2 on a usage
 * error, said). */
int rtg_options_parse(int argc, char **argv, launch *l);

/* setup.c: the environment the program runs in, from *l: HSA_TOOLS_LIB,
 * --hip-table's preload, RTG_FILENAME (prefix, cap bytes, gets its value:
 * the trace files are prefix.<pid>), and when the traces are to be
 * converted the list file the tracer appends their paths to (l->list,
 * RTG_TRACE_LIST).  false: failed (said). */
int rtg_setup(launch *l, char *prefix, size_t cap);

/* after.c: convert and report the traces of the run, as *l asks: those
 * l->list names and those matching prefix (its %patterns% any text, then
 * .<pid> or .exec<k>.<pid>) written since `since`.  Removes the list. */
void rtg_after(const launch *l, const char *prefix, time_t since);

/* signals.c: before the fork, block and catch SIGTERM/SIGINT/SIGHUP; in
 * the child (the application, a tool), the signals as rtg-trace found
 * them; running: forward them to pid; done: stop forwarding. */
void rtg_signals_before_fork(void);
void rtg_signals_child(void);
void rtg_signals_running(pid_t pid);
void rtg_signals_done(void);

/* Set an environment variable; false (said) when the environment is full. */
int rtg_setenv(const char *name, const char *value);

/* "rtg-trace: cannot WHAT: path=PATH: ERRNO-TEXT" on stderr (PATH may be
 * NULL, err 0: no errno text). */
void rtg_fail(const char *what, const char *path, int err);

#endif
