/* rtg-trace's command line: each option that sets an environment variable
 * is one row of a table (its name, the variable, the value); the others
 * ask something of the launcher itself. */
#include "launcher.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef RTG_VERSION
#define RTG_VERSION "0"
#endif

static void usage(FILE *f) {
  fputs("usage: rtg-trace [options] -- PROGRAM [ARGS...]\n"
        "Runs PROGRAM with the rtg tracer (rtg_tracer.so) and writes one trace file per\n"
        "process, rtg_trace.txt.<pid>, optionally converted afterwards.\n"
        "\n"
        "What to trace (each option sets the variable named after it):\n"
        "      --hip-trace[=FILTER]     HIP API calls; FILTER: all (default) or substrings\n"
        "                               separated by commas      RTG_HIP_API_FILTER\n"
        "      --no-hip-trace           no HIP API calls         RTG_HIP_API_FILTER=\n"
        "      --hip-filter-out=LIST    leave out HIP calls containing a substring\n"
        "                                                        RTG_HIP_API_FILTER_OUT\n"
        "  -a, --args                   decode HIP call arguments RTG_HIP_API_ARGS=1\n"
        "      --hsa-trace[=FILTER]     HSA API calls; FILTER: all (default), core, ext or\n"
        "                               substrings               RTG_HSA_API_FILTER\n"
        "      --hsa-filter-out=LIST    leave out HSA calls      RTG_HSA_API_FILTER_OUT\n"
        "      --host-dispatch          also record each dispatch when the host enqueues it\n"
        "                                                        RTG_HSA_HOST_DISPATCH=1\n"
        "      --no-kernels             no kernel/barrier records RTG_PROFILE=0\n"
        "      --no-copies              no async-copy records    RTG_PROFILE_COPY=0\n"
        "      --hcc-profile            legacy HCC_PROFILE=2 'profile:' lines for rpt\n"
        "                                                        HCC_PROFILE=2\n"
        "      --no-roctx               ignore ROCTx markers     RTG_ROCTX=0\n"
        "      --no-mpi                 no MPI call records      RTG_MPI=0\n"
        "      --kernel-rename          name kernels after their innermost ROCTx range\n"
        "                                                        RTG_KERNEL_RENAME=1\n"
        "      --backtrace=SPEC         record host call stacks of the calls SPEC selects:\n"
        "                               SUBSTR[,SUBSTR...][:MIN_NS], 'all' for every call\n"
        "                                                        RTG_BACKTRACE\n"
        "      --hip-table              HIP and ROCTx through rocprofiler-register (ROCm\n"
        "                               6.2+): preloads rtg_register.so (beside the\n"
        "                               tracer) and names it in ROCPROFILER_REGISTER_LIBRARY\n"
        "Output:\n"
        "  -o, --output-dir=DIR         write the traces into DIR (created)\n"
        "      --filename=NAME          trace file name before .<pid>  RTG_FILENAME\n"
        "      --buffer-mb=N            cap of all buffers (MB)  RTG_BUFFER_MB\n"
        "      --buffer-full=wait|drop  at the cap               RTG_BUFFER_FULL\n"
        "      --exit-wait-ms=N         wait at most N ms for GPU work at exit\n"
        "                                                        RTG_EXIT_WAIT_MS\n"
        "  -v, --verbose[=N]            tracer messages: 1 settings and paths, 2 also the\n"
        "                               traced function lists   RTG_VERBOSE\n"
        "After the run (programs found next to rtg-trace):\n"
        "  -c, --convert[=FILE]         rtg-convert the traces of this run into FILE\n"
        "                               (default: rtg_trace.json beside the traces)\n"
        "  -s, --stats                  print rtg-convert --summary statistics\n"
        "  -A, --analyze[=FILE.json]    print why each GPU was idle (rtg-convert\n"
        "                               --analyze), and write it as JSON to FILE\n"
        "      --html[=FILE]            write the one-file HTML report (default:\n"
        "                               rtg_trace.html beside the traces)\n"
        "      --rpt                    print the rpt report of the traces\n"
        "      --tracer=PATH            use this rtg_tracer.so\n"
        "  -h, --help                   this text;  --version  the version\n"
        "\n"
        "An optional value is attached (-cFILE, --convert=FILE) or, when -- marks the\n"
        "program, the next word: rtg-trace -c run.json -- PROGRAM.  The traces of every\n"
        "process PROGRAM starts (fork, exec, RTG_FILENAME patterns) are converted.\n"
        "SIGTERM, SIGINT and SIGHUP sent to rtg-trace are forwarded to PROGRAM.\n"
        "\n"
        "Exit status: PROGRAM's (a signal that killed it is re-raised); 127 when it\n"
        "could not be started; 1 when rtg_tracer.so is not found; 2 usage.\n",
        f);
}

/* What an option does that sets no variable. */
typedef enum {
  ENV,
  TABLE,
  OUTDIR,
  FILENAME,
  CONVERT,
  STATS,
  ANALYZE,
  HTML,
  RPT,
  TRACER,
  HELP,
  VERSION
} action;

typedef struct opt_def {
  const char *name;
  int has_arg;       /* getopt's no_argument, required_argument, optional_argument */
  char short_name;   /* 0: none */
  action act;        /* ENV: sets var */
  const char *var;   /* the environment variable */
  const char *value; /* its value: fixed, or an optional argument's default; NULL: the argument */
} opt_def;

static const opt_def defs[] = {
    {"hip-trace", optional_argument, 0, ENV, "RTG_HIP_API_FILTER", "all"},
    {"no-hip-trace", no_argument, 0, ENV, "RTG_HIP_API_FILTER", ""},
    {"hip-filter-out", required_argument, 0, ENV, "RTG_HIP_API_FILTER_OUT", NULL},
    {"args", no_argument, 'a', ENV, "RTG_HIP_API_ARGS", "1"},
    {"hsa-trace", optional_argument, 0, ENV, "RTG_HSA_API_FILTER", "all"},
    {"hsa-filter-out", required_argument, 0, ENV, "RTG_HSA_API_FILTER_OUT", NULL},
    {"host-dispatch", no_argument, 0, ENV, "RTG_HSA_HOST_DISPATCH", "1"},
    {"no-kernels", no_argument, 0, ENV, "RTG_PROFILE", "0"},
    {"no-copies", no_argument, 0, ENV, "RTG_PROFILE_COPY", "0"},
    {"hcc-profile", no_argument, 0, ENV, "HCC_PROFILE", "2"},
    {"no-roctx", no_argument, 0, ENV, "RTG_ROCTX", "0"},
    {"no-mpi", no_argument, 0, ENV, "RTG_MPI", "0"},
    {"kernel-rename", no_argument, 0, ENV, "RTG_KERNEL_RENAME", "1"},
    {"backtrace", required_argument, 0, ENV, "RTG_BACKTRACE", NULL},
    {"hip-table", no_argument, 0, TABLE, NULL, NULL},
    {"output-dir", required_argument, 'o', OUTDIR, NULL, NULL},
    {"filename", required_argument, 0, FILENAME, NULL, NULL},
    {"buffer-mb", required_argument, 0, ENV, "RTG_BUFFER_MB", NULL},
    {"buffer-full", required_argument, 0, ENV, "RTG_BUFFER_FULL", NULL},
    {"exit-wait-ms", required_argument, 0, ENV, "RTG_EXIT_WAIT_MS", NULL},
    {"verbose", optional_argument, 'v', ENV, "RTG_VERBOSE", "1"},
    {"convert", optional_argument, 'c', CONVERT, NULL, NULL},
    {"stats", no_argument, 's', STATS, NULL, NULL},
    {"analyze", optional_argument, 'A', ANALYZE, NULL, NULL},
    {"html", optional_argument, 0, HTML, NULL, NULL},
    {"rpt", no_argument, 0, RPT, NULL, NULL},
    {"tracer", required_argument, 0, TRACER, NULL, NULL},
    {"help", no_argument, 'h', HELP, NULL, NULL},
    {"version", no_argument, 0, VERSION, NULL, NULL},
};
enum { NDEFS = sizeof defs / sizeof *defs, LONG_ONLY = 256 };

static int usage_error(const char *msg, const char *arg) {
  fprintf(stderr, "rtg-trace: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
  fprintf(stderr, "Try 'rtg-trace --help'.\n");
  return 2;
}

/* The row of what getopt_long returned. */
static const opt_def *def_of(int c) {
  if (c >= LONG_ONLY && c < LONG_ONLY + NDEFS) return &defs[c - LONG_ONLY];
  for (int i = 0; i < NDEFS; i++)
    if (defs[i].short_name && defs[i].short_name == c) return &defs[i];
  return NULL;
}

/* Give optional value v to the option d, as getopt would have. */
static int set_optional(const opt_def *d, const char *v, launch *l) {
  switch (d->act) {
  case ENV:
    return rtg_setenv(d->var, v) ? 0 : 1;
  case CONVERT:
    l->convert = v;
    return 0;
  case ANALYZE:
    l->analyze = v;
    return 0;
  case HTML:
    l->html = v;
    return 0;
  default:
    return 0;
  }
}

/* getopt stopped at argv[optind], which is not an option.  When the option
 * before it takes an optional value and a later "--" marks where the
 * program begins, it is that option's value (rtg-trace -c run.json -- ./app):
 * 0, go on parsing.  Without "--", a word that only names a file of that
 * option (-c run.json ./app, --html report.html ./app) is refused: 2 (said).
 * Else -1: it is the program.  1: the environment is full (said). */
static int separate_value(int argc, char **argv, const opt_def *last, launch *l) {
  if (!last || optind >= argc || !strcmp(argv[optind - 1], "--")) return -1;
  const char *w = argv[optind];
  int dashdash = 0;
  for (int i = optind + 1; i < argc && !dashdash; i++) dashdash = !strcmp(argv[i], "--");
  if (dashdash) {
    int r = set_optional(last, w, l);
    if (r) return r;
    optind++;
    return 0;
  }
  size_t n = strlen(w);
  const char *ext = last->act == HTML ? ".html" : ".json";
  if ((last->act == CONVERT || last->act == ANALYZE || last->act == HTML) && n > strlen(ext) &&
      !strcmp(w + n - strlen(ext), ext)) {
    fprintf(stderr,
            "rtg-trace: %s would be run as the program: give --%s its file as --%s=%s, or put -- "
            "before the program\n",
            w, last->name, last->name, w);
    fprintf(stderr, "Try 'rtg-trace --help'.\n");
    return 2;
  }
  return -1;
}

int rtg_options_parse(int argc, char **argv, launch *l) {
  struct option longs[NDEFS + 1];
  char shorts[1 + 3 * NDEFS + 1] = "+"; /* '+': stop at the program */
  size_t ns = 1;
  for (int i = 0; i < NDEFS; i++) {
    const opt_def *d = &defs[i];
    longs[i] =
        (struct option){d->name, d->has_arg, NULL, d->short_name ? d->short_name : LONG_ONLY + i};
    if (!d->short_name) continue;
    shorts[ns++] = d->short_name;
    if (d->has_arg != no_argument) shorts[ns++] = ':';
    if (d->has_arg == optional_argument) shorts[ns++] = ':';
  }
  shorts[ns] = 0;
  longs[NDEFS] = (struct option){0, 0, 0, 0};
  int c;
  const opt_def *last = NULL; /* the last option, when its optional value was not given */
  for (;;) {
    c = getopt_long(argc, argv, shorts, longs, NULL);
    if (c == -1) {
      int r = separate_value(argc, argv, last, l);
      if (r > 0) return r;
      if (r < 0) break;
      last = NULL;
      continue;
    }
    const opt_def *d = def_of(c);
    if (!d) return usage_error("bad option", NULL);
    last = d->has_arg == optional_argument && !optarg ? d : NULL;
    switch (d->act) {
    case ENV:
      if (!rtg_setenv(d->var, d->has_arg == no_argument || !optarg ? d->value : optarg)) return 1;
      break;
    case TABLE:
      l->table = 1;
      break;
    case OUTDIR:
      l->outdir = optarg;
      break;
    case FILENAME:
      l->filename = optarg;
      break;
    case CONVERT:
      l->convert = optarg ? optarg : "";
      break;
    case STATS:
      l->stats = 1;
      break;
    case ANALYZE:
      l->analyze = optarg ? optarg : "";
      break;
    case HTML:
      l->html = optarg ? optarg : "";
      break;
    case RPT:
      l->rpt = 1;
      break;
    case TRACER:
      l->tracer = optarg;
      break;
    case HELP:
      usage(stdout);
      return 0;
    case VERSION:
      printf("rtg-trace %s\n", RTG_VERSION);
      return 0;
    }
  }
  if (optind >= argc) return usage_error("no program given", NULL);
  l->program = optind;
  return -1;
}
