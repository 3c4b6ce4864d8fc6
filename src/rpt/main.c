/* rpt: the HCC_PROFILE=2 report.  This file holds the command line (every
 * option of the original Python rpt, argparse-like: long options may be
 * abbreviated and take "=VALUE" or the next argument) and the pipeline:
 * read -> sort -> resolve the ROI -> walk the ROI per resource -> print. */
#include "diag.h"
#include "outfile.h"
#include "rpt.h"
#include "xalloc.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

static const uint64_t default_gaps[] = RTG_GAP_BUCKETS_DEFAULT;

static void usage(FILE *f) {
  fputs("usage: rpt [-h] [--version] [-t] [-g JSON_FILE] [-r ROI_START] [-R ROI_STOP]\n"
        "           [--info] [--hide_app_text] [--no_gaps] [--ignore_barriers]\n"
        "           [--gaps GAP [GAP ...]] [--topn N] [--db] FILE [FILE ...]\n",
        f);
}

static void help(void) {
  usage(stdout);
  fputs("\n"
        "Summarize where GPU time went: per resource (GPU0, GPU1, ..., DATA for copies)\n"
        "the busy percentage, the top commands by time and the idle time split into gap\n"
        "buckets.  FILE is a log with HCC_PROFILE=2 'profile:' lines (mixed with any\n"
        "application output) or an rtg trace (rtg_trace.txt.<pid>); '-' reads stdin.\n"
        "\n"
        "options:\n"
        "  -h, --help            show this help and exit\n"
        "  --version             show the version and exit\n"
        "  -t, --text_trace      print every command of the ROI in start time order,\n"
        "                        with the gap before it and the text that preceded it\n"
        "  -g, --gui_trace JSON_FILE\n"
        "                        also write the ROI as chrome://tracing / Perfetto JSON\n"
        "  -r, --roi_start ROI_POINT\n"
        "                        first command of the region of interest (included)\n"
        "  -R, --roi_stop ROI_POINT\n"
        "                        last command of the region of interest (excluded from\n"
        "                        the tables; its stop time ends ROI_TIME)\n"
        "  --info                explain the fields of the output\n"
        "  --hide_app_text       -t shows only the commands, not the application text\n"
        "  --no_gaps             leave gaps out: percentages are of busy time\n"
        "  --ignore_barriers     leave barrier commands out (treated as text)\n"
        "  --gaps GAP [GAP ...]  gap bucket limits in us (default: 10 20 50 100 1000\n"
        "                        10000 100000)\n"
        "  --topn N              rows per resource (default: 20; -1: all)\n"
        "  --db                  print each profile record as it is read ('raw: ...')\n"
        "\n"
        "ROI_POINT is one of:\n"
        "  @LINE          the command on input line LINE, or the first command after\n"
        "                 it when LINE is application text.  Example: @1342\n"
        "  ^TIME          the first command starting TIME after the first command of\n"
        "                 the input; in ms (as -t shows it), or with a unit ns, us, ms\n"
        "                 or s.  Example: ^55.12345\n"
        "  [N]%REGEX      the command after the Nth block of text (default 1st) with a\n"
        "                 line matching REGEX (POSIX extended), counted in start time\n"
        "                 order, so an application can mark its phases with prints.\n"
        "                 Example: 2%MyStartMarker\n"
        "\n"
        "Exit status: 0 ok, 1 unreadable input or ROI not found, 2 usage error.\n",
        stdout);
}

static void usage_error(const char *fmt, const char *a, const char *b) {
  fprintf(stderr, "rpt: error: ");
  fprintf(stderr, fmt, a, b);
  fprintf(stderr, "\n");
  usage(stderr);
  fprintf(stderr, "Try 'rpt --help' for more information.\n");
  exit(2);
}

enum opt_id {
  O_HELP,
  O_VERSION,
  O_TEXT,
  O_GUI,
  O_RSTART,
  O_RSTOP,
  O_INFO,
  O_HIDE,
  O_NOGAPS,
  O_NOBAR,
  O_GAPS,
  O_TOPN,
  O_DB
};

static const struct opt {
  const char *name;
  char short_name;
  bool arg;
  enum opt_id id;
} opts[] = {
    {"help", 'h', false, O_HELP},
    {"version", 0, false, O_VERSION},
    {"text_trace", 't', false, O_TEXT},
    {"gui_trace", 'g', true, O_GUI},
    {"roi_start", 'r', true, O_RSTART},
    {"roi_stop", 'R', true, O_RSTOP},
    {"info", 0, false, O_INFO},
    {"hide_app_text", 0, false, O_HIDE},
    {"no_gaps", 0, false, O_NOGAPS},
    {"ignore_barriers", 0, false, O_NOBAR},
    {"gaps", 0, true, O_GAPS},
    {"topn", 0, true, O_TOPN},
    {"db", 0, false, O_DB},
};
#define NOPTS (sizeof opts / sizeof opts[0])

/* Long option by exact name or unambiguous prefix, as argparse allows. */
static const struct opt *find_long(const char *name, size_t len) {
  const struct opt *hit = NULL;
  int nhits = 0;
  for (size_t i = 0; i < NOPTS; i++) {
    if (strncmp(opts[i].name, name, len) != 0) continue;
    if (opts[i].name[len] == 0) return &opts[i];
    hit = &opts[i];
    nhits++;
  }
  return nhits == 1 ? hit : NULL;
}

static bool parse_long(const char *s, long *v) {
  char *e;
  errno = 0;
  *v = strtol(s, &e, 10);
  return *s && !*e && errno == 0;
}

/* One --gaps value (a comma list is accepted too); false if not a number. */
static bool add_gaps(rpt_opts *o, const char *s, bool must) {
  char *copy = strdup(s), *save = NULL;
  bool ok = copy != NULL;
  size_t before = o->ngaps;
  for (char *t = strtok_r(copy, ",", &save); ok && t; t = strtok_r(NULL, ",", &save)) {
    long v;
    if (!parse_long(t, &v)) {
      ok = false;
      break;
    }
    if (v <= 0) usage_error("argument --gaps: bucket limits must be > 0 us, not '%s'%s", t, "");
    uint64_t *g = rtg_xrealloc(o->gaps, (o->ngaps + 1) * sizeof *g, "the --gaps limits");
    o->gaps = g;
    o->gaps[o->ngaps++] = (uint64_t)v;
  }
  if (!ok) o->ngaps = before;
  free(copy);
  if (!ok && must) usage_error("argument --gaps: invalid int value: '%s'%s", s, "");
  return ok;
}

static void parse_args(int argc, char **argv, rpt_opts *o) {
  bool gaps_given = false, only_files = false;
  o->topn = 20;
  o->roi_start.opt = "roi_start";
  o->roi_stop.opt = "roi_stop";
  o->inputs = rtg_xcalloc((size_t)argc, sizeof *o->inputs, "the list of inputs");
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (only_files || a[0] != '-' || a[1] == 0) {
      o->inputs[o->ninputs++] = argv[i];
      continue;
    }
    if (!strcmp(a, "--")) {
      only_files = true;
      continue;
    }
    const struct opt *op = NULL;
    const char *val = NULL;
    if (a[1] == '-') {
      const char *eq = strchr(a + 2, '=');
      size_t len = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
      op = find_long(a + 2, len);
      if (!op) usage_error("unrecognized or ambiguous option: %s%s", a, "");
      if (eq && !op->arg)
        usage_error("argument --%s: ignored explicit argument '%s'", op->name, eq + 1);
      if (eq) val = eq + 1;
    } else {
      for (size_t k = 0; k < NOPTS; k++)
        if (opts[k].short_name == a[1]) op = &opts[k];
      if (!op) usage_error("unrecognized option: %s%s", a, "");
      if (a[2]) {
        if (op->arg) {
          val = a + 2;
        } else { /* grouped flags such as -th */
          for (const char *c = a + 1; *c; c++) {
            const struct opt *f = NULL;
            for (size_t k = 0; k < NOPTS; k++)
              if (opts[k].short_name == *c && !opts[k].arg) f = &opts[k];
            if (!f) usage_error("unrecognized option in %s%s", a, "");
            if (f->id == O_HELP) help(), exit(0);
            if (f->id == O_TEXT) o->text_trace = true;
          }
          continue;
        }
      }
    }
    if (op->arg && !val) {
      if (i + 1 >= argc) usage_error("argument --%s: expected %s", op->name, "a value");
      val = argv[++i];
    }
    long v;
    switch (op->id) {
    case O_HELP:
      help();
      exit(0);
    case O_VERSION:
      printf("rpt %s\n", RTG_VERSION);
      exit(0);
    case O_TEXT:
      o->text_trace = true;
      break;
    case O_GUI:
      o->gui_trace = val;
      break;
    case O_RSTART:
      if (rpt_roi_parse(&o->roi_start, "roi_start", val)) exit(2);
      break;
    case O_RSTOP:
      if (rpt_roi_parse(&o->roi_stop, "roi_stop", val)) exit(2);
      break;
    case O_INFO:
      o->info = true;
      break;
    case O_HIDE:
      o->hide_app_text = true;
      break;
    case O_NOGAPS:
      o->no_gaps = true;
      break;
    case O_NOBAR:
      o->ignore_barriers = true;
      break;
    case O_DB:
      o->db = true;
      break;
    case O_TOPN:
      if (!parse_long(val, &v)) usage_error("argument --topn: invalid int value: '%s'%s", val, "");
      o->topn = v;
      break;
    case O_GAPS:
      if (!gaps_given) o->ngaps = 0; /* a repeated --gaps adds to the list */
      gaps_given = true;
      add_gaps(o, val, true);
      /* nargs='+': the following numbers belong to --gaps too */
      while (i + 1 < argc && add_gaps(o, argv[i + 1], false)) i++;
      break;
    }
  }
  if (!gaps_given) {
    o->ngaps = sizeof default_gaps / sizeof default_gaps[0];
    o->gaps = rtg_xmalloc(sizeof default_gaps, "the --gaps limits");
    memcpy(o->gaps, default_gaps, sizeof default_gaps);
  }
  for (size_t k = 1; k < o->ngaps; k++)
    if (o->gaps[k] <= o->gaps[k - 1]) {
      char a[24], b[24];
      snprintf(a, sizeof a, "%llu", (unsigned long long)o->gaps[k - 1]);
      snprintf(b, sizeof b, "%llu", (unsigned long long)o->gaps[k]);
      usage_error("argument --gaps: bucket limits must increase, not %s then %s", a, b);
    }
  o->ngaps = rtg_gap_limits_normalize(o->gaps, o->ngaps);
  if (o->ninputs == 0 && o->info) { /* the explanation alone */
    rpt_print_info();
    exit(0);
  }
  if (o->ninputs == 0) usage_error("the following arguments are required: %s%s", "FILE", "");
}

static void free_opts(rpt_opts *o) {
  rpt_roi_free(&o->roi_start);
  rpt_roi_free(&o->roi_stop);
  free(o->gaps);
  free(o->inputs);
}

/* Read, sort, resolve the ROI, walk it and print; the exit status. */
static int run(rpt_opts *o, rpt_data *d) {
  if (!rpt_read_inputs(d, o)) return 1;
  int status = d->read_error ? 1 : 0;
  if (d->n == 0) {
    rtg_warning("no profile records found in %llu lines of input", (unsigned long long)d->lines);
    return status;
  }

  uint32_t *order = rpt_sort(d);
  size_t first, last;
  if (!rpt_roi_resolve(&o->roi_start, d, order, 0, &first) ||
      !rpt_roi_resolve(&o->roi_stop, d, order, d->n - 1, &last)) {
    free(order);
    return 1;
  }
  const rpt_rec *r0 = &d->recs[order[first]], *r1 = &d->recs[order[last]];
  rpt_print_roi(d, r0, r1);
  if (first > last) {
    fflush(stdout);
    rtg_error("the ROI start (line %u) comes after the ROI stop (line %u) in start time order",
              r0->line, r1->line);
    free(order);
    return 1;
  }
  uint64_t roi_ns = r1->stop > r0->start ? r1->stop - r0->start : 0;
  /* The original walks [start, stop): the stop command only closes the
   * ROI, which on a legacy log keeps its numbers.  On rtg traces without
   * -R the ROI is the whole trace, and its last command counts too. */
  size_t end = o->roi_stop.kind == ROI_DEFAULT && d->rtg_records ? last + 1 : last;

  if (o->info) rpt_print_info();
  if (o->text_trace) rpt_print_trace_header();

  rpt_resources rs;
  rpt_resources_init(&rs, d->names, (rtg_gap_buckets){o->gaps, o->ngaps});
  for (size_t p = first; p < end; p++) {
    const rpt_rec *r = &d->recs[order[p]];
    rpt_resource *res = rpt_resource_of(&rs, r);
    uint64_t gap;
    uint64_t crit = rpt_resource_add(&rs, res, r, &gap);
    if (o->text_trace) {
      if (!o->hide_app_text) rpt_print_text(d, order[p]);
      rpt_print_trace_line(d, o, r, r0->start, crit, gap);
    }
  }
  if (o->gui_trace) {
    if (!rpt_gui_trace(o->gui_path, o->gui_trace, d, order, first, end)) status = 1;
    o->gui_written = true;
  }
  rpt_print_summaries(&rs, d->names, o, roi_ns);
  rpt_resources_free(&rs);
  free(order);
  return status;
}

int main(int argc, char **argv) {
  rpt_opts o = {0};
  rpt_data d = {0};
  rtg_diag_set_program("rpt");
  parse_args(argc, argv, &o);

  /* A big stdout buffer: -t on a large log prints one line per command. */
  static char outbuf[1 << 16];
  setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);

  /* -g: its file is made (outfile.h) before the inputs are read, so one
   * that cannot be stops rpt at once; it replaces an existing one only
   * when rpt succeeds */
  if (o.gui_trace && !(o.gui_path = rtg_out_path(o.gui_trace))) {
    rtg_error("cannot open file: path=%s: %s", o.gui_trace, strerror(errno));
    free_opts(&o);
    return 1;
  }
  int status = run(&o, &d);
  if (fflush(stdout) != 0) {
    rtg_error("cannot write the report: %s", strerror(errno));
    status = 1;
  }
  if (status == 0 && o.gui_trace && !o.gui_written) { /* no records: nothing to write */
    rtg_out_discard();
    rtg_warning("-g %s: not written (no records)", o.gui_trace);
  }
  if (status == 0 && !rtg_out_commit()) status = 1;
  if (status != 0 && o.gui_trace) {
    rtg_out_discard();
    rtg_error("-g %s: not written (rpt failed); an existing file is left as it was", o.gui_trace);
  }
  rpt_data_free(&d);
  free_opts(&o);
  return status;
}
