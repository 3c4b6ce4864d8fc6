/* The text output.  Every layout below is the original rpt's print format,
 * padding included, so old and new reports compare with diff:
 *   command line  "%4s %16.6f: %+10.2f %-7s #%d.%d.%d %8d: %-30s " (the
 *                 trailing space is Python 2's print-comma softspace)
 *   gap line      "%4s %16.6f: %+10.2f %-7s %10s %-30s"
 *   table header  "%14s %11s %8s %8s %8s %8s  %-30s"
 *   table row     "%13.2f%% %10.1f %8d %8.1f %8.1f %8.1f  %-30s"
 * Times: start in ms from the ROI start, durations in us. */
#include "diag.h"
#include "rpt.h"
#include "xalloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static double ms_from(uint64_t t, uint64_t offset) {
  return (double)(int64_t)(t - offset) / 1000000.0;
}

static void command_line(const rpt_data *d, const rpt_rec *r, uint64_t offset, uint64_t critical) {
  char res[16];
  printf("%4s %16.6f: %+10.2f %-7s #%u.%u.%u %8u: %-30s \n", rpt_resource_name(r, res),
         ms_from(r->start, offset), (double)critical / 1000.0, rpt_type_names[r->type],
         (unsigned)r->device, (unsigned)r->queue, (unsigned)r->seq, r->line,
         rtg_strtab_get(d->names, r->name));
}

void rpt_print_roi(const rpt_data *d, const rpt_rec *first, const rpt_rec *last) {
  fputs("ROI_START: ", stdout);
  command_line(d, first, first->start, 0);
  fputs("ROI_STOP : ", stdout);
  command_line(d, last, first->start, 0); /* offset by the start, as the original */
  printf("ROI_TIME=%8.3f secs\n", (double)(int64_t)(last->stop - first->start) / 1e9);
}

void rpt_print_info(void) {
  fputs("How to read rpt output.\n"
        "  ROI_START, ROI_STOP: the first command of the region of interest and the\n"
        "    command that ends it (its stop time ends ROI_TIME, but it is not counted,\n"
        "    except in rtg traces without -R: there the ROI is the whole trace).\n"
        "  ROI_TIME: from the start of ROI_START to the stop of ROI_STOP, in seconds.\n"
        "  Resource: where commands run: GPU<n> for kernels and barriers of device n,\n"
        "    DATA for copies.  'busy' is the share of ROI_TIME the resource worked.\n"
        "  Table rows, sorted by Time: commands grouped by name (copies by direction\n"
        "    and size), and gaps (idle time between one command and the next on the\n"
        "    same resource) grouped by size bucket (--gaps).  A command that overlaps\n"
        "    the one before it counts only the part after that one stopped.\n"
        "    Total(%): Time as a share of ROI_TIME (of busy time with --no_gaps);\n"
        "    Time, Avg, Min, Max in us; Calls: how many.\n"
        "Text trace (-t), one command a line:\n"
        "  Resource : GPU<n> or DATA.\n"
        "  Start(ms): start time, in ms from the start of ROI_START.\n"
        "  +Time(us): the time the command added to the busy time of its resource\n"
        "    (its non-overlapped part).  A 'gap' line before a command shows the idle\n"
        "    time before it, with one '==' per bucket it passed.\n"
        "  Type     : kernel, barrier or copy.\n"
        "  #Dev.Q.Cmd: device, queue and the command's sequence number on its queue.\n"
        "  LineNum  : line of the input file.\n"
        "  Name     : kernel name; copies: direction and size; '>' lines: the text\n"
        "    the application printed before the command.\n",
        stdout);
}

void rpt_print_trace_header(void) {
  printf("%4s %16s %8s %7s %10s %10s %-30s\n", "Resource", "Start(ms)", "+Time(us)", "Type",
         "#Dev.Q.Cmd", "LineNum", "Name");
}

/* The text before record idx, read back from the spool, each line as "> ". */
void rpt_print_text(rpt_data *d, uint32_t idx) {
  if (!d->spool) return;
  uint64_t from = idx ? d->text_end[idx - 1] : 0, to = d->text_end[idx];
  if (from >= to) return;
  static char *buf;
  static size_t cap;
  bool at_line_start = true;
  int fd = fileno(d->spool);
  while (from < to) {
    size_t want = to - from > (1u << 20) ? (1u << 20) : (size_t)(to - from);
    if (want > cap) {
      free(buf);
      cap = want;
      buf = rtg_xmalloc(cap, "a report line");
    }
    ssize_t got = pread(fd, buf, want, (off_t)from);
    if (got <= 0) {
      rtg_error("cannot read the text spool: %s", got < 0 ? strerror(errno) : "short read");
      return;
    }
    for (ssize_t i = 0; i < got; i++) {
      if (at_line_start) fputs("> ", stdout);
      putchar(buf[i]);
      at_line_start = buf[i] == '\n';
    }
    from += (uint64_t)got;
  }
}

void rpt_print_trace_line(const rpt_data *d, const rpt_opts *o, const rpt_rec *r, uint64_t offset,
                          uint64_t critical, uint64_t gap) {
  if (!o->no_gaps && gap > 0) {
    char res[16], markers[2 * 64 + 1];
    rtg_gap_buckets b = {o->gaps, o->ngaps};
    size_t n = rtg_gap_bucket(&b, gap);
    n = n < o->ngaps ? n + 1 : o->ngaps; /* buckets passed, the hit one included */
    if (n > 64) n = 64;
    memset(markers, '=', 2 * n);
    markers[2 * n] = 0;
    printf("%4s %16.6f: %+10.2f %-7s %10s %-30s\n", rpt_resource_name(r, res),
           ms_from(r->start - gap, offset), (double)gap / 1000.0, "gap", "", markers);
  }
  command_line(d, r, offset, critical);
}

static int cmp_rows(const void *a, const void *b) {
  const rpt_row *x = *(const rpt_row *const *)a, *y = *(const rpt_row *const *)b;
  if (x->total != y->total) return x->total > y->total ? -1 : 1;
  return x < y ? -1 : x > y; /* ties: first appearance first */
}

static double pct(uint64_t part, uint64_t whole) {
  return whole ? (double)part * 100.0 / (double)whole : 0.0;
}

static void summary(const rpt_resource *res, const rpt_resources *rs, const rtg_strtab *names,
                    const rpt_opts *o, uint64_t roi_ns) {
  const rpt_row **rows = rtg_xmalloc((res->nrows + 1) * sizeof *rows, "a resource's rows");
  size_t n = 0;
  for (size_t i = 0; i < res->nrows; i++)
    if (!(o->no_gaps && (res->rows[i].key & RPT_GAP_BIT))) rows[n++] = &res->rows[i];
  qsort(rows, n, sizeof *rows, cmp_rows);
  size_t show = o->topn < 0 || (size_t)o->topn > n ? n : (size_t)o->topn;
  uint64_t whole = o->no_gaps ? res->busy : roi_ns;

  printf("\nResource=%s Showing %zu/%zu records  %6.2f%% busy\n", res->name, show, n,
         pct(res->busy, roi_ns));
  printf("%14s %11s %8s %8s %8s %8s  %-30s\n", "Total(%)", "Time(us)", "Calls", "Avg(us)",
         "Min(us)", "Max(us)", "Name");
  for (size_t i = 0; i < show; i++) {
    const rpt_row *r = rows[i];
    uint32_t id = r->key & RPT_GAP_BIT ? rs->gap_names[r->key & 0xffffffffu] : (uint32_t)r->key;
    double us = (double)r->total / 1000.0;
    printf("%13.2f%% %10.1f %8llu %8.1f %8.1f %8.1f  %-30s\n", pct(r->total, whole), us,
           (unsigned long long)r->calls, us / (double)r->calls, (double)r->min / 1000.0,
           (double)r->max / 1000.0, rtg_strtab_get(names, id));
  }
  free(rows);
}

void rpt_print_summaries(const rpt_resources *rs, const rtg_strtab *names, const rpt_opts *o,
                         uint64_t roi_ns) {
  for (size_t i = 0; i < rs->ngpu; i++)
    if (rs->gpu[i]) summary(rs->gpu[i], rs, names, o, roi_ns);
  if (rs->data) summary(rs->data, rs, names, o, roi_ns);
}
