/* rtg-trace: run an application under rtg_tracer.so.
 *
 *   rtg-trace [options] -- ./app args...
 *
 * Every option maps to one RTG_* variable (or HSA_TOOLS_LIB, LD_PRELOAD and
 * ROCPROFILER_REGISTER_LIBRARY); the variables already in the environment
 * are kept unless an option overrides them.  The application runs as a
 * child; its exit status is ours, and a signal that killed it kills us the
 * same way (after the optional conversion), so scripts see no difference.
 * Exit status: the application's; 2 usage; 127 the application could not
 * be started; 1 the tracer library could not be found. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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
        "      --rpt                    print the rpt report of the traces\n"
        "      --tracer=PATH            use this rtg_tracer.so\n"
        "  -h, --help                   this text;  --version  the version\n"
        "\n"
        "Exit status: PROGRAM's (a signal that killed it is re-raised); 127 when it\n"
        "could not be started; 1 when rtg_tracer.so is not found; 2 usage.\n",
        f);
}

enum {
  O_HIP = 256,
  O_NOHIP,
  O_HIPOUT,
  O_HSA,
  O_HSAOUT,
  O_HOSTDISP,
  O_NOKERN,
  O_NOCOPY,
  O_HCC,
  O_NOROCTX,
  O_RENAME,
  O_BT,
  O_TABLE,
  O_FILENAME,
  O_BUFMB,
  O_BUFFULL,
  O_EXITWAIT,
  O_RPT,
  O_TRACER,
  O_VERSION
};

static const struct option opts[] = {{"hip-trace", optional_argument, 0, O_HIP},
                                     {"no-hip-trace", no_argument, 0, O_NOHIP},
                                     {"hip-filter-out", required_argument, 0, O_HIPOUT},
                                     {"args", no_argument, 0, 'a'},
                                     {"hsa-trace", optional_argument, 0, O_HSA},
                                     {"hsa-filter-out", required_argument, 0, O_HSAOUT},
                                     {"host-dispatch", no_argument, 0, O_HOSTDISP},
                                     {"no-kernels", no_argument, 0, O_NOKERN},
                                     {"no-copies", no_argument, 0, O_NOCOPY},
                                     {"hcc-profile", no_argument, 0, O_HCC},
                                     {"no-roctx", no_argument, 0, O_NOROCTX},
                                     {"kernel-rename", no_argument, 0, O_RENAME},
                                     {"backtrace", required_argument, 0, O_BT},
                                     {"hip-table", no_argument, 0, O_TABLE},
                                     {"output-dir", required_argument, 0, 'o'},
                                     {"filename", required_argument, 0, O_FILENAME},
                                     {"buffer-mb", required_argument, 0, O_BUFMB},
                                     {"buffer-full", required_argument, 0, O_BUFFULL},
                                     {"exit-wait-ms", required_argument, 0, O_EXITWAIT},
                                     {"verbose", optional_argument, 0, 'v'},
                                     {"convert", optional_argument, 0, 'c'},
                                     {"stats", no_argument, 0, 's'},
                                     {"rpt", no_argument, 0, O_RPT},
                                     {"tracer", required_argument, 0, O_TRACER},
                                     {"help", no_argument, 0, 'h'},
                                     {"version", no_argument, 0, O_VERSION},
                                     {0, 0, 0, 0}};

static char self_dir[PATH_MAX];

static int usage_error(const char *msg, const char *arg) {
  fprintf(stderr, "rtg-trace: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
  fprintf(stderr, "Try 'rtg-trace --help'.\n");
  return 2;
}

static void set(const char *name, const char *value) {
  setenv(name, value, 1);
}

static int exists(const char *p) {
  return access(p, R_OK) == 0;
}

/* rtg_tracer.so beside us (build tree) or in ../lib/rtg (installed). */
static int find_tracer(char *out, size_t cap) {
  snprintf(out, cap, "%s/rtg_tracer.so", self_dir);
  if (exists(out)) return 0;
  snprintf(out, cap, "%s/../lib/rtg/rtg_tracer.so", self_dir);
  if (exists(out)) {
    char r[PATH_MAX];
    if (realpath(out, r)) snprintf(out, cap, "%s", r);
    return 0;
  }
  return -1;
}

static int mkdirs(const char *dir) {
  char p[PATH_MAX];
  snprintf(p, sizeof p, "%s", dir);
  for (char *s = p + 1; *s; s++) {
    if (*s != '/') continue;
    *s = 0;
    if (mkdir(p, 0777) && errno != EEXIST) return -1;
    *s = '/';
  }
  return mkdir(p, 0777) && errno != EEXIST ? -1 : 0;
}

/* The trace files this run wrote: PREFIX.<pid> modified since `since`. */
static int collect(const char *prefix, time_t since, char ***files) {
  char dir[PATH_MAX], base[PATH_MAX];
  const char *slash = strrchr(prefix, '/');
  if (slash) {
    snprintf(dir, sizeof dir, "%.*s", (int)(slash - prefix), prefix);
    if (!*dir) strcpy(dir, "/");
    snprintf(base, sizeof base, "%s", slash + 1);
  } else {
    strcpy(dir, ".");
    snprintf(base, sizeof base, "%s", prefix);
  }
  DIR *d = opendir(dir);
  if (!d) return 0;
  int n = 0;
  size_t bl = strlen(base);
  struct dirent *e;
  while ((e = readdir(d))) {
    if (strncmp(e->d_name, base, bl) || e->d_name[bl] != '.') continue;
    const char *t = e->d_name + bl + 1;
    if (!*t || strspn(t, "0123456789") != strlen(t)) continue;
    char path[PATH_MAX * 2];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    struct stat st;
    if (stat(path, &st) || st.st_mtime < since) continue;
    *files = realloc(*files, sizeof(char *) * (size_t)(n + 2));
    (*files)[n++] = strdup(path);
    (*files)[n] = NULL;
  }
  closedir(d);
  return n;
}

/* Run a helper program (rtg-convert, rpt) from our directory; its status. */
static int run_tool(const char *tool, char **argv) {
  char path[PATH_MAX + 64];
  snprintf(path, sizeof path, "%s/%s", self_dir, tool);
  argv[0] = path;
  fflush(stdout);
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (!pid) {
    /* the tools must not be traced themselves */
    unsetenv("HSA_TOOLS_LIB");
    unsetenv("LD_PRELOAD");
    execv(path, argv);
    fprintf(stderr, "rtg-trace: cannot run %s: %s\n", path, strerror(errno));
    _exit(127);
  }
  int st;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}

int main(int argc, char **argv) {
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {
    exe[n] = 0;
    char *s = strrchr(exe, '/');
    if (s) *s = 0;
    snprintf(self_dir, sizeof self_dir, "%s", exe);
  } else {
    strcpy(self_dir, ".");
  }

  const char *outdir = NULL, *filename = NULL, *tracer = NULL, *convert = NULL;
  int stats = 0, rpt = 0, table = 0;
  int c;
  /* '+': stop at the first non-option, the program */
  while ((c = getopt_long(argc, argv, "+ao:v::c::sh", opts, NULL)) != -1) {
    switch (c) {
    case O_HIP:
      set("RTG_HIP_API_FILTER", optarg ? optarg : "all");
      break;
    case O_NOHIP:
      set("RTG_HIP_API_FILTER", "");
      break;
    case O_HIPOUT:
      set("RTG_HIP_API_FILTER_OUT", optarg);
      break;
    case 'a':
      set("RTG_HIP_API_ARGS", "1");
      break;
    case O_HSA:
      set("RTG_HSA_API_FILTER", optarg ? optarg : "all");
      break;
    case O_HSAOUT:
      set("RTG_HSA_API_FILTER_OUT", optarg);
      break;
    case O_HOSTDISP:
      set("RTG_HSA_HOST_DISPATCH", "1");
      break;
    case O_NOKERN:
      set("RTG_PROFILE", "0");
      break;
    case O_NOCOPY:
      set("RTG_PROFILE_COPY", "0");
      break;
    case O_HCC:
      set("HCC_PROFILE", "2");
      break;
    case O_NOROCTX:
      set("RTG_ROCTX", "0");
      break;
    case O_RENAME:
      set("RTG_KERNEL_RENAME", "1");
      break;
    case O_BT:
      set("RTG_BACKTRACE", optarg);
      break;
    case O_TABLE:
      table = 1;
      break;
    case 'o':
      outdir = optarg;
      break;
    case O_FILENAME:
      filename = optarg;
      break;
    case O_BUFMB:
      set("RTG_BUFFER_MB", optarg);
      break;
    case O_BUFFULL:
      set("RTG_BUFFER_FULL", optarg);
      break;
    case O_EXITWAIT:
      set("RTG_EXIT_WAIT_MS", optarg);
      break;
    case 'v':
      set("RTG_VERBOSE", optarg ? optarg : "1");
      break;
    case 'c':
      convert = optarg ? optarg : "";
      break;
    case 's':
      stats = 1;
      break;
    case O_RPT:
      rpt = 1;
      break;
    case O_TRACER:
      tracer = optarg;
      break;
    case 'h':
      usage(stdout);
      return 0;
    case O_VERSION:
      printf("rtg-trace %s\n", RTG_VERSION);
      return 0;
    default:
      return usage_error("bad option", NULL);
    }
  }
  if (optind >= argc) return usage_error("no program given", NULL);

  char lib[PATH_MAX];
  if (tracer) {
    if (!realpath(tracer, lib)) {
      fprintf(stderr, "rtg-trace: cannot find the tracer: path=%s: %s\n", tracer, strerror(errno));
      return 1;
    }
  } else if (find_tracer(lib, sizeof lib)) {
    fprintf(stderr, "rtg-trace: cannot find rtg_tracer.so next to %s or in %s/../lib/rtg\n",
            self_dir, self_dir);
    return 1;
  }
  set("HSA_TOOLS_LIB", lib);
  if (table) {
    /* 6.2+: HIP hands its dispatch table to rocprofiler-register at the
     * first HIP call, before hsa_init loads HSA_TOOLS_LIB, so a tool library
     * must already be in the process and be named as the register library:
     * rtg_register.so keeps the tables until the tracer takes them.
     * Appended to LD_PRELOAD: a sanitizer runtime there must stay first.
     * HSA_TOOLS_ROCPROFILER_V1_TOOLS keeps ROCR loading HSA_TOOLS_LIB (6.1+). */
    char reg[PATH_MAX + 32];
    snprintf(reg, sizeof reg, "%s", lib);
    char *slash = strrchr(reg, '/');
    snprintf(slash ? slash + 1 : reg, sizeof reg - (size_t)(slash ? slash + 1 - reg : 0),
             "rtg_register.so");
    if (!exists(reg)) {
      fprintf(stderr, "rtg-trace: --hip-table needs rtg_register.so beside the tracer: path=%s\n",
              reg);
      return 1;
    }
    const char *pre = getenv("LD_PRELOAD");
    char buf[PATH_MAX * 3];
    snprintf(buf, sizeof buf, "%s%s%s", pre && *pre ? pre : "", pre && *pre ? ":" : "", reg);
    set("LD_PRELOAD", buf);
    set("ROCPROFILER_REGISTER_LIBRARY", reg);
    set("HSA_TOOLS_ROCPROFILER_V1_TOOLS", "1");
  }

  char prefix[PATH_MAX];
  const char *fname = filename ? filename : getenv("RTG_FILENAME");
  if (!fname || !*fname) fname = "rtg_trace.txt";
  if (outdir) {
    if (mkdirs(outdir)) {
      fprintf(stderr, "rtg-trace: cannot create the output directory: path=%s: %s\n", outdir,
              strerror(errno));
      return 1;
    }
    snprintf(prefix, sizeof prefix, "%s/%s", outdir, fname);
  } else {
    snprintf(prefix, sizeof prefix, "%s", fname);
  }
  set("RTG_FILENAME", prefix);

  time_t started = time(NULL);
  fflush(stdout);
  pid_t pid = fork();
  if (pid < 0) {
    fprintf(stderr, "rtg-trace: cannot fork: %s\n", strerror(errno));
    return 1;
  }
  if (!pid) {
    execvp(argv[optind], argv + optind);
    fprintf(stderr, "rtg-trace: cannot run %s: %s\n", argv[optind], strerror(errno));
    _exit(127);
  }
  /* Like a shell: ^C and ^\ are for the application, which gets them from
   * the terminal itself; we only wait for it. */
  signal(SIGINT, SIG_IGN);
  signal(SIGQUIT, SIG_IGN);
  int st;
  while (waitpid(pid, &st, 0) < 0) {
    if (errno != EINTR) {
      fprintf(stderr, "rtg-trace: cannot wait for %s: %s\n", argv[optind], strerror(errno));
      return 1;
    }
  }

  if (convert || stats || rpt) {
    char **files = NULL;
    int nf = collect(prefix, started - 1, &files);
    if (!nf) {
      fprintf(stderr, "rtg-trace: no trace files %s.<pid> written by this run\n", prefix);
    } else {
      char **av = calloc((size_t)nf + 8, sizeof *av);
      if (convert || stats) {
        int k = 1;
        char out[PATH_MAX + 16];
        if (convert && *convert)
          snprintf(out, sizeof out, "%s", convert);
        else if (convert)
          snprintf(out, sizeof out, "%s.json", outdir ? prefix : "rtg_trace");
        if (convert) {
          av[k++] = "-o";
          av[k++] = out;
        } else {
          av[k++] = "-o";
          av[k++] = "/dev/null";
        }
        if (stats) av[k++] = "--summary";
        for (int i = 0; i < nf; i++) av[k++] = files[i];
        av[k] = NULL;
        if (run_tool("rtg-convert", av) == 0 && convert)
          fprintf(stderr, "rtg-trace: wrote %s\n", out);
      }
      if (rpt) {
        int k = 1;
        for (int i = 0; i < nf; i++) av[k++] = files[i];
        av[k] = NULL;
        run_tool("rpt", av);
      }
      free(av);
    }
  }

  if (WIFSIGNALED(st)) {
    int sig = WTERMSIG(st);
    fflush(NULL);
    signal(sig, SIG_DFL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    sigaction(sig, &sa, NULL);
    sigset_t m;
    sigemptyset(&m);
    sigaddset(&m, sig);
    sigprocmask(SIG_UNBLOCK, &m, NULL);
    /* no core file of our own: the application's is the one that matters */
    struct rlimit nocore = {0, 0};
    setrlimit(RLIMIT_CORE, &nocore);
    raise(sig);
    return 128 + sig;
  }
  return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}
