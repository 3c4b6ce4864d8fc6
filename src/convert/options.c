/* Command line of rtg-convert: one table of options, parsed with
 * getopt_long; the original converter's short options keep their meaning. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "convert.h"

enum {
  OPT_STATS = 256,
  OPT_SUMMARY,
  OPT_GAPS,
  OPT_GAP_BUCKETS,
  OPT_TOP_GAPS,
  OPT_SQLITE,
  OPT_START,
  OPT_END,
  OPT_ZERO,
  OPT_PROGRESS,
  OPT_NO_PROGRESS,
  OPT_STRICT,
  OPT_FORMAT,
  OPT_VERSION,
  OPT_CSV,
  OPT_OTF2,
  OPT_ANALYZE,
  OPT_HTML,
  OPT_NO_ALIGN,
  OPT_PART,
  OPT_MERGE,
  OPT_SPLIT_SIZE
};

static const struct option long_opts[] = {
    {"output", required_argument, 0, 'o'},
    {"flows", no_argument, 0, 'f'},
    {"gap-events", no_argument, 0, 'g'},
    {"kernel-names", no_argument, 0, 'k'},
    {"by-process", no_argument, 0, 'p'},
    {"verbose", no_argument, 0, 'v'},
    {"workgroups", no_argument, 0, 'w'},
    {"quiet", no_argument, 0, 'q'},
    {"help", no_argument, 0, 'h'},
    {"version", no_argument, 0, OPT_VERSION},
    {"stats", optional_argument, 0, OPT_STATS},
    {"summary", no_argument, 0, OPT_SUMMARY},
    {"gaps", optional_argument, 0, OPT_GAPS},
    {"gap-buckets", required_argument, 0, OPT_GAP_BUCKETS},
    {"top-gaps", required_argument, 0, OPT_TOP_GAPS},
    {"sqlite", required_argument, 0, OPT_SQLITE},
    {"start", required_argument, 0, OPT_START},
    {"end", required_argument, 0, OPT_END},
    {"zero", no_argument, 0, OPT_ZERO},
    {"progress", no_argument, 0, OPT_PROGRESS},
    {"no-progress", no_argument, 0, OPT_NO_PROGRESS},
    {"strict", no_argument, 0, OPT_STRICT},
    {"csv", required_argument, 0, OPT_CSV},
    {"otf2", required_argument, 0, OPT_OTF2},
    {"analyze", optional_argument, 0, OPT_ANALYZE},
    {"html", required_argument, 0, OPT_HTML},
    {"format", required_argument, 0, OPT_FORMAT},
    {"no-align", no_argument, 0, OPT_NO_ALIGN},
    {"part", required_argument, 0, OPT_PART},
    {"merge", no_argument, 0, OPT_MERGE},
    {"split-size", required_argument, 0, OPT_SPLIT_SIZE},
    {0, 0, 0, 0},
};

static void usage(FILE *f) {
  fputs(
      "usage: rtg-convert [options] FILE...\n"
      "Converts rtg traces (rtg_trace.txt.<pid>), HCC_PROFILE=2 logs, strace/ltrace -tttT\n"
      "output and Chrome JSON files into one timeline and reports.\n"
      "\n"
      "Chrome/Perfetto JSON:\n"
      "  -o, --output FILE   write the Chrome trace JSON to FILE (- = stdout); a FILE\n"
      "                      named *.pftrace gets a native Perfetto (protobuf) trace\n"
      "      --format F      json or perfetto: the format of -o whatever its name\n"
      "  -f, --flows         flow arrows from HIP calls / host dispatches to GPU ops\n"
      "  -g, --gap-events    add GPU idle time as slices named by cause\n"
      "  -k, --kernel-names  name HIP launch calls after the kernel they launch\n"
      "  -p, --by-process    group tracks by process instead of by domain\n"
      "      --split-size SIZE  cut -o's timeline into time windows of at most SIZE bytes\n"
      "                      each (K, M, G: 1024s; e.g. 1500M): FILE.000.json (or\n"
      "                      .pftrace) ... and FILE.index.json\n"
      "      --zero          timestamps relative to the first event (default: boot time)\n"
      "Reports:\n"
      "      --stats[=DIR]   kernel_stats.csv, hip_api_stats.csv, hsa_api_stats.csv,\n"
      "                      memory_copy_stats.csv in DIR (default .)\n"
      "      --summary       the statistics as terminal tables\n"
      "      --gaps[=FILE]   GPU idle-gap report per GPU and queue (default stdout)\n"
      "      --gap-buckets LIST  gap bucket bounds in us (default 10,20,50,100,1000,10000,100000)\n"
      "      --top-gaps N    largest gaps listed per GPU (default 5)\n"
      "      --analyze[=FILE.json]  why each GPU was idle: idle time split into causes that\n"
      "                      add up to it (printed; also written as JSON to FILE)\n"
      "      --html FILE     one self-contained HTML report: the analysis, charts and a\n"
      "                      timeline, for any browser, offline\n"
      "      --sqlite FILE   rocmProfileData (RPD) database, schema version 3\n"
      "  -w, --workgroups    print the kernels' workgroup sizes, sorted\n"
      "      --csv DIR       rocprofv3's CSV files: DIR/<host>/<pid>_kernel_trace.csv,\n"
      "                      _hip_api_trace, _hsa_api_trace, _memory_copy_trace, "
      "_marker_api_trace\n"
      "      --otf2 DIR      OTF2 archive DIR/trace.otf2 (Vampir, otf2-print)\n"
      "Input selection:\n"
      "      --start T       drop events starting before T: microseconds or N%\n"
      "      --end T         drop events starting after T: microseconds or N%\n"
      "Several hosts:\n"
      "      --no-align      each host's times on its own CLOCK_BOOTTIME (default: every\n"
      "                      host moved onto the first's by their clock pairs; -v)\n"
      "Jobs of many nodes (each node packs its traces, one step converts the parts):\n"
      "      --part FILE     pack the trace files into the part FILE; convert nothing\n"
      "      --merge         the inputs include parts: read as the files they hold, in\n"
      "                      order (the outputs of those files converted at once)\n"
      "Messages:\n"
      "  -v, --verbose       counts of parsed and skipped lines per kind\n"
      "  -q, --quiet         no warnings\n"
      "      --progress, --no-progress   progress on stderr (default: when a terminal)\n"
      "      --strict        exit 1 when any input line was skipped or a trace is incomplete\n"
      "  -h, --help          this text;  --version  the version\n"
      "With no output option, writes out.json.  Outputs replace existing files only when\n"
      "the run succeeds.  Exit status: 0 ok (warnings possible), 1 an input could not be\n"
      "read or is not a trace, or an output not written, 2 usage.\n",
      f);
}

bool cv_parse_time_arg(const char *s, double *value, bool *percent) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (end == s || errno || v < 0 || v != v) return false;
  *percent = *end == '%';
  if (*percent) end++;
  if (*end || (*percent && v > 100)) return false;
  *value = v;
  return true;
}

static bool parse_buckets(cv_options *o, const char *s) {
  int n = 0;
  uint64_t prev = 0;
  while (*s) {
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s || errno || v <= prev || n == 16) return false;
    o->gap_buckets_us[n++] = prev = v;
    s = end;
    if (*s == ',' || *s == ' ')
      s++;
    else if (*s)
      return false;
  }
  o->ngap_buckets = n;
  return n > 0;
}

/* --split-size: bytes, with K, M or G (powers of 1024) */
static bool parse_size(const char *s, uint64_t *v) {
  char *end;
  errno = 0;
  unsigned long long n = strtoull(s, &end, 10);
  if (end == s || errno || *s == '-') return false;
  int shift = 0;
  if (*end == 'K' || *end == 'k')
    shift = 10, end++;
  else if (*end == 'M' || *end == 'm')
    shift = 20, end++;
  else if (*end == 'G' || *end == 'g')
    shift = 30, end++;
  if (*end || !n || n > (UINT64_MAX >> shift)) return false;
  *v = (uint64_t)n << shift;
  return true;
}

/* -o's format: --format, else the name's extension. */
static void resolve_format(cv_options *o, const char *format) {
  if (!o->json_out) return;
  size_t n = strlen(o->json_out);
  bool pf =
      format ? !strcmp(format, "perfetto") : n > 8 && !strcmp(o->json_out + n - 8, ".pftrace");
  if (pf) o->perfetto_out = o->json_out, o->json_out = NULL;
}

int cv_parse_options(cv_ctx *ctx, int argc, char **argv, int *first_input) {
  cv_options *o = &ctx->opt;
  const char *format = NULL;
  static const uint64_t def_buckets[] = RTG_GAP_BUCKETS_DEFAULT;
  memcpy(o->gap_buckets_us, def_buckets, sizeof def_buckets);
  o->ngap_buckets = sizeof def_buckets / sizeof def_buckets[0];
  o->top_gaps = 5;
  int c;
  opterr = 0;
  while ((c = getopt_long(argc, argv, "o:fgkpvwqh", long_opts, NULL)) != -1) {
    switch (c) {
    case 'o':
      o->json_out = optarg;
      break;
    case 'f':
      o->flows = true;
      break;
    case 'g':
      o->gap_events = true;
      break;
    case 'k':
      o->kernel_names = true;
      break;
    case 'p':
      o->by_process = true;
      break;
    case 'v':
      o->verbose = true;
      break;
    case 'w':
      o->workgroups = true;
      break;
    case 'q':
      o->quiet = true;
      break;
    case 'h':
      usage(stdout);
      return 0;
    case OPT_VERSION:
      printf("rtg-convert %s\n", RTG_VERSION);
      return 0;
    case OPT_STATS:
      o->stats_dir = optarg ? optarg : ".";
      break;
    case OPT_SUMMARY:
      o->summary = true;
      break;
    case OPT_GAPS:
      o->gaps_out = optarg ? optarg : "-";
      break;
    case OPT_ANALYZE:
      o->analyze_out = optarg ? optarg : "-";
      break;
    case OPT_HTML:
      o->html_out = optarg;
      break;
    case OPT_GAP_BUCKETS:
      if (!parse_buckets(o, optarg)) {
        rtg_error("bad --gap-buckets: %s (increasing microseconds, e.g. 10,100,1000)", optarg);
        return 2;
      }
      break;
    case OPT_TOP_GAPS: {
      char *end;
      long v = strtol(optarg, &end, 10);
      if (*end || v < 0 || v > 1000) {
        rtg_error("bad --top-gaps: %s", optarg);
        return 2;
      }
      o->top_gaps = (int)v;
      break;
    }
    case OPT_SQLITE:
      o->sqlite_out = optarg;
      break;
    case OPT_START:
    case OPT_END: {
      double v;
      bool pct;
      if (!cv_parse_time_arg(optarg, &v, &pct)) {
        rtg_error("bad --%s: %s (microseconds, or a percentage like 25%%)",
                  c == OPT_START ? "start" : "end", optarg);
        return 2;
      }
      *(c == OPT_START ? &o->start_arg : &o->end_arg) = optarg;
      break;
    }
    case OPT_ZERO:
      o->zero_time = true;
      break;
    case OPT_PROGRESS:
      o->progress = true, o->progress_set = 1;
      break;
    case OPT_NO_PROGRESS:
      o->progress = false, o->progress_set = 1;
      break;
    case OPT_STRICT:
      o->strict = true;
      break;
    case OPT_NO_ALIGN:
      o->no_align = true;
      break;
    case OPT_PART:
      o->part_out = optarg;
      break;
    case OPT_MERGE:
      o->merge = true;
      break;
    case OPT_SPLIT_SIZE:
      if (!parse_size(optarg, &o->split_size)) {
        rtg_error("bad --split-size: %s (bytes, or with K, M or G, e.g. 1500M)", optarg);
        return 2;
      }
      break;
    case OPT_CSV:
      o->csv_dir = optarg;
      break;
    case OPT_OTF2:
      o->otf2_dir = optarg;
      break;
    case OPT_FORMAT:
      if (strcmp(optarg, "json") && strcmp(optarg, "perfetto")) {
        rtg_error("bad --format: %s (json or perfetto)", optarg);
        return 2;
      }
      format = optarg;
      break;
    default:
      if (optopt && optopt < 256)
        rtg_error("unknown option or missing argument: -%c", optopt);
      else
        rtg_error("unknown option or missing argument: %s", argv[optind - 1]);
      fputs("Try 'rtg-convert --help'.\n", stderr);
      return 2;
    }
  }
  if (optind >= argc) {
    rtg_error("no input files");
    fputs("Try 'rtg-convert --help'.\n", stderr);
    return 2;
  }
  if (o->part_out) {
    if (o->json_out || o->stats_dir || o->summary || o->gaps_out || o->sqlite_out ||
        o->workgroups || o->csv_dir || o->otf2_dir || o->analyze_out || o->html_out || o->merge) {
      rtg_error("--part packs the traces and converts nothing: give the outputs (and --merge) to "
                "the step that converts the parts");
      return 2;
    }
    *first_input = optind;
    return -1;
  }
  if (!o->json_out && !o->stats_dir && !o->summary && !o->gaps_out && !o->sqlite_out &&
      !o->workgroups && !o->csv_dir && !o->otf2_dir && !o->analyze_out && !o->html_out) {
    o->json_out = "out.json";
    if (!o->quiet) fprintf(stderr, "rtg-convert: writing out.json (use -o to change the name)\n");
  }
  resolve_format(o, format);
  const char *tl = o->json_out ? o->json_out : o->perfetto_out;
  if (o->split_size && (!tl || !strcmp(tl, "-"))) {
    rtg_error("--split-size cuts the timeline of -o FILE into parts: give -o FILE (not stdout)");
    return 2;
  }
  *first_input = optind;
  return -1; /* go on */
}
