/* rtg-convert: merges rtg traces (and the other inputs the original
 * converter took) into a Chrome/Perfetto timeline, statistics CSVs, a gap
 * report and an RPD database.  See `rtg-convert --help`. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "convert.h"
#include "outfile.h"
#include "xalloc.h"

static uint64_t window_bound(cv_ctx *ctx, const char *arg, uint64_t first, uint64_t last) {
  double v;
  bool pct;
  cv_parse_time_arg(arg, &v, &pct);
  if (pct) return first + (uint64_t)llround((double)(last - first) * v / 100.0);
  return (uint64_t)llround(v * 1000.0);
}

static const char *const count_names[CVC_COUNT] = {
#define CN_X(K, p, k, F) [CVC_##K] = #K,
    RTG_RECORD_KINDS(CN_X)
#undef CN_X
        [CVC_STRACE] = "strace/ltrace",
    [CVC_HCC] = "HCC profile",
    [CVC_JSON_EVENTS] = "JSON events",
    [CVC_BAD] = "malformed (skipped)",
    [CVC_FOREIGN] = "other text (ignored)",
    [CVC_BINARY] = "binary (skipped)",
    [CVC_TOO_LONG] = "too long (skipped)",
    [CVC_BAD_TIME] = "bad times (skipped)",
    [CVC_OUTSIDE] = "outside --start/--end",
    [CVC_TRUNCATED] = "cut off (skipped)",
    [CVC_DUPLICATE] = "duplicates (skipped)",
};

static uint64_t skipped(const cv_ctx *ctx) {
  return ctx->counts[CVC_BAD] + ctx->counts[CVC_BINARY] + ctx->counts[CVC_TOO_LONG] +
         ctx->counts[CVC_BAD_TIME] + ctx->counts[CVC_TRUNCATED] + ctx->counts[CVC_DUPLICATE];
}

static void print_counts(cv_ctx *ctx) {
  fprintf(ctx->report, "lines by kind:\n");
  for (int i = 0; i < CVC_COUNT; i++) {
    if (!ctx->counts[i]) continue;
    char lower[64];
    size_t n = 0;
    for (const char *s = count_names[i]; *s && n < sizeof lower - 1; s++)
      lower[n++] = (char)(*s >= 'A' && *s <= 'Z' && i < CVC_STRACE ? *s + 32 : *s);
    lower[n] = 0;
    fprintf(ctx->report, "  %-24s %llu\n", lower, (unsigned long long)ctx->counts[i]);
  }
}

/* Is an output file also one of the inputs?  Writing it would destroy the
 * trace before it is read (the same file under another name counts). */
static const char *output_among_inputs(const cv_ctx *ctx) {
  const char *outs[] = {ctx->opt.json_out,   ctx->opt.perfetto_out, ctx->opt.gaps_out,
                        ctx->opt.sqlite_out, ctx->opt.analyze_out,  ctx->opt.html_out,
                        ctx->opt.part_out};
  for (size_t o = 0; o < sizeof outs / sizeof *outs; o++) {
    struct stat so, si;
    if (!outs[o] || !strcmp(outs[o], "-") || stat(outs[o], &so) || !S_ISREG(so.st_mode)) continue;
    for (int i = 0; i < ctx->ninputs; i++)
      if (strcmp(ctx->inputs[i], "-") && !stat(ctx->inputs[i], &si) && si.st_dev == so.st_dev &&
          si.st_ino == so.st_ino)
        return outs[o];
  }
  return NULL;
}

/* A path as a canonical string (malloc'd): the file's real path when it
 * exists, else its directory's real path and its name. */
static char *canonical(const char *p) {
  char *r = realpath(p, NULL);
  if (r) return r;
  const char *slash = strrchr(p, '/');
  char *dir = slash ? strndup(p, (size_t)(slash - p) + (slash == p)) : strdup(".");
  char *rd = dir ? realpath(dir, NULL) : NULL;
  free(dir);
  size_t n = rd ? strlen(rd) + strlen(p) + 2 : 0;
  char *c = n ? malloc(n) : NULL;
  if (c) snprintf(c, n, "%s/%s", rd, slash ? slash + 1 : p);
  free(rd);
  return c ? c : rtg_xstrdup(p, "a path");
}

/* Do two outputs name one path (-o X --sqlite X: the second would replace
 * the first)?  Directories of several files (--stats, --csv, --otf2) may
 * be shared with each other, not with a file output.  Says which. */
static bool outputs_clash(const cv_ctx *ctx) {
  const cv_options *o = &ctx->opt;
  struct {
    const char *opt, *path;
    bool dir;
  } outs[] = {{"-o", o->json_out, false},           {"-o", o->perfetto_out, false},
              {"--gaps", o->gaps_out, false},       {"--sqlite", o->sqlite_out, false},
              {"--analyze", o->analyze_out, false}, {"--html", o->html_out, false},
              {"--stats", o->stats_dir, true},      {"--csv", o->csv_dir, true},
              {"--otf2", o->otf2_dir, true}};
  enum { N = sizeof outs / sizeof *outs };
  char *canon[N] = {0};
  for (int i = 0; i < N; i++)
    if (outs[i].path && strcmp(outs[i].path, "-")) canon[i] = canonical(outs[i].path);
  bool clash = false;
  for (int i = 0; i < N && !clash; i++)
    for (int j = i + 1; j < N && !clash; j++)
      if (canon[i] && canon[j] && !(outs[i].dir && outs[j].dir) && !strcmp(canon[i], canon[j])) {
        rtg_error("%s and %s name one output: path=%s (the second would replace the first)",
                  outs[i].opt, outs[j].opt, outs[j].path);
        clash = true;
      }
  for (int i = 0; i < N; i++) free(canon[i]);
  return clash;
}

/* Can every input be read: a file that opens for reading, or a pipe or
 * device the user may read (not opened here: a writer on a pipe would see
 * its reader come and go)?  Asked before any output is opened: an input
 * named wrong must leave an existing output as it was.  Says which, and
 * why, for each one that cannot. */
static bool inputs_readable(const cv_ctx *ctx) {
  bool ok = true;
  for (int i = 0; i < ctx->ninputs; i++) {
    const char *p = ctx->inputs[i];
    struct stat st;
    if (!strcmp(p, "-")) continue;
    int fd = -1;
    if (stat(p, &st) ||
        (S_ISREG(st.st_mode) ? (fd = open(p, O_RDONLY | O_CLOEXEC)) < 0 : access(p, R_OK))) {
      rtg_error("cannot open input: path=%s: %s", p, strerror(errno));
      ok = false;
    } else if (S_ISDIR(st.st_mode)) {
      rtg_error("cannot open input: path=%s: %s (name the trace files in it, e.g. "
                "%s/rtg_trace.txt.*)",
                p, strerror(EISDIR), p);
      ok = false;
    }
    if (fd >= 0) close(fd);
  }
  return ok;
}

int main(int argc, char **argv) {
  rtg_diag_set_program("rtg-convert");
  static cv_ctx ctx;
  ctx.window_end = UINT64_MAX;
  int first;
  int st = cv_parse_options(&ctx, argc, argv, &first);
  if (st >= 0) return st;
  rtg_diag_quiet = ctx.opt.quiet;
  ctx.strs = rtg_strtab_new();
  if (!ctx.strs) rtg_out_of_memory("the table of names");
  ctx.inputs = (const char **)argv + first;
  ctx.ninputs = argc - first;
  if (outputs_clash(&ctx)) return 2;
  const char *clash = output_among_inputs(&ctx);
  if (clash) {
    rtg_error("the output is also an input, and writing it would destroy the trace: path=%s",
              clash);
    return 2;
  }
  if (!inputs_readable(&ctx)) {
    rtg_error("no output written: every input must be readable");
    return 1;
  }
  if (ctx.opt.part_out) return cv_write_part(&ctx, ctx.opt.part_out);
  const char *out = ctx.opt.json_out ? ctx.opt.json_out : ctx.opt.perfetto_out;
  ctx.report = out && !strcmp(out, "-") ? stderr : stdout;
  if ((st = cv_open_parts(&ctx)) >= 0) return st;

  if (ctx.opt.zero_time || (ctx.opt.start_arg && strchr(ctx.opt.start_arg, '%')) ||
      (ctx.opt.end_arg && strchr(ctx.opt.end_arg, '%'))) {
    bool stdin_input = false;
    for (int i = 0; i < ctx.ninputs; i++) stdin_input |= !strcmp(ctx.inputs[i], "-");
    if (stdin_input) {
      rtg_error("--zero and --start/--end in %% need files, not stdin");
      return 2;
    }
    cv_measure_span(&ctx);
  }
  uint64_t first_ns = ctx.first_ns, last_ns = ctx.last_ns;
  if (ctx.opt.start_arg)
    ctx.window_start = window_bound(&ctx, ctx.opt.start_arg, first_ns, last_ns);
  if (ctx.opt.end_arg) ctx.window_end = window_bound(&ctx, ctx.opt.end_arg, first_ns, last_ns);
  if (ctx.window_start > ctx.window_end) {
    rtg_error("--start %s is after --end %s: no event could be kept", ctx.opt.start_arg,
              ctx.opt.end_arg);
    return 2;
  }
  if (ctx.opt.zero_time) ctx.time_base = ctx.window_start > first_ns ? ctx.window_start : first_ns;
  ctx.first_ns = ctx.last_ns = 0;

  bool ok = true;
  if (ctx.opt.json_out) ok &= cv_add_sink(&ctx, &cv_chrome_sink);
  if (ctx.opt.perfetto_out) ok &= cv_add_sink(&ctx, &cv_perfetto_sink);
  if (ctx.opt.stats_dir || ctx.opt.summary) ok &= cv_add_sink(&ctx, &cv_stats_sink);
  if (ctx.opt.gaps_out) ok &= cv_add_sink(&ctx, &cv_gaps_sink);
  if (ctx.opt.sqlite_out) ok &= cv_add_sink(&ctx, &cv_sqlite_sink);
  if (ctx.opt.workgroups) ok &= cv_add_sink(&ctx, &cv_workgroups_sink);
  if (ctx.opt.csv_dir) ok &= cv_add_sink(&ctx, &cv_csv_sink);
  if (ctx.opt.otf2_dir) ok &= cv_add_sink(&ctx, &cv_otf2_sink);
  if (ctx.opt.analyze_out) ok &= cv_add_sink(&ctx, &cv_analyze_sink);
  if (ctx.opt.html_out) ok &= cv_add_sink(&ctx, &cv_html_sink);
  if (!ok) {
    rtg_out_discard();
    return 1;
  }

  size_t nparts;
  bool others;
  const cv_part_state *parts = cv_part_states(&nparts, &others);
  int from_state = cv_merge_state(&ctx, parts, nparts, others, cv_part_records_bytes());
  bool read_ok = from_state >= 0 ? from_state == 1 : cv_read_inputs(&ctx);
  ok &= cv_close_sinks(&ctx);
  if (read_ok && ok && !ctx.not_traces) {
    ok = rtg_out_commit();
  } else {
    rtg_out_discard();
    rtg_error("no output written: %s; existing outputs are left as they were",
              !read_ok ? "an input could not be read"
              : !ok    ? "an output could not be written"
                       : "an input is not a trace");
  }

  if (ctx.opt.verbose) print_counts(&ctx);
  uint64_t bad = skipped(&ctx);
  if (bad && !ctx.opt.quiet)
    rtg_warning("%llu input lines skipped (see the warnings above; -v counts them by kind)",
                (unsigned long long)bad);
  cv_ctx_free(&ctx);
  if (!read_ok || !ok || ctx.not_traces) return 1;
  if (bad && ctx.opt.strict) {
    rtg_error("--strict: %llu input lines skipped", (unsigned long long)bad);
    return 1;
  }
  if (ctx.unhealthy && ctx.opt.strict) {
    rtg_error("--strict: %u input file%s an incomplete trace (see the warnings above)",
              ctx.unhealthy, ctx.unhealthy == 1 ? " is" : "s are");
    return 1;
  }
  return 0;
}
