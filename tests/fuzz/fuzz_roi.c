/* libFuzzer target: rpt's ROI selectors (src/rpt/roi.c): the parser of
 * @LINE, ^TIME and [N]%REGEX, the watchers that see the text and records
 * of a file, and the resolution after the sort.
 * Input: the first line is the selector; the following lines are a small
 * file: "R<start>" is a record starting at <start> ns, anything else is
 * application text (at most 64 lines of 64 bytes, selector of 40 bytes,
 * so glibc's regex engine stays fast).
 * Oracles: parse returns 0 or 1 and a parsed selector is consistent (@:
 * line >= 1, %: nth >= 1 and a compiled regex); resolution agrees with a
 * brute-force model of the documented rules:
 *   @LINE   the record on that line, else the first record after it (text
 *           after the last record belongs to the last record);
 *   ^TIME   the first record, in start order, starting >= TIME after the
 *           first one;
 *   N%RE    the record whose preceding text block (text after the last
 *           record of the file: that record) is the Nth, in start order,
 *           holding a matching line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/rpt/rpt.h"

enum { MAX_LINES = 64, MAX_LEN = 64, MAX_SEL = 40 };

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  if (!freopen("/dev/null", "w", stdout)) abort(); /* the "info: %roi ... matched" line */
  return 0;
}

/* (start, index) order, as rpt_sort's stable sort by start gives */
static int key_less(const rpt_rec *r, uint32_t a, uint32_t b) {
  return r[a].start < r[b].start || (r[a].start == r[b].start && a < b);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  const unsigned char *nl = memchr(data, '\n', size);
  size_t sel_len = nl ? (size_t)(nl - data) : size;
  if (sel_len > MAX_SEL || memchr(data, 0, sel_len)) return 0;
  /* glibc's regcomp takes memory exponential in stacked repetitions
   * ("a++++++++++++++++++++" needs gigabytes): its limit, not rpt's code */
  int reps = 0;
  for (size_t i = 0; i < sel_len; i++)
    reps += data[i] == '+' || data[i] == '*' || data[i] == '?' || data[i] == '{';
  if (reps > 6) return 0;
  char sel[MAX_SEL + 1];
  memcpy(sel, data, sel_len);
  sel[sel_len] = 0;

  rpt_roi roi;
  memset(&roi, 0, sizeof roi);
  int st = rpt_roi_parse(&roi, "roi_start", sel);
  if (st != 0 && st != 1) abort();
  if (st) {
    rpt_roi_free(&roi);
    return 0;
  }
  if (roi.kind == ROI_LINE && roi.line == 0) abort();
  if (roi.kind == ROI_REGEX && (!roi.re_ok || roi.nth == 0)) abort();
  if (roi.kind == ROI_DEFAULT) abort();

  /* the file */
  static char text[MAX_LINES][MAX_LEN + 1];
  static int is_rec[MAX_LINES];
  rpt_rec recs[MAX_LINES];
  uint32_t rec_line[MAX_LINES]; /* line number of each record */
  int nlines = 0, nrec = 0;
  size_t pos = nl ? sel_len + 1 : size;
  while (pos < size && nlines < MAX_LINES) {
    const unsigned char *e = memchr(data + pos, '\n', size - pos);
    size_t n = e ? (size_t)(e - (data + pos)) : size - pos;
    if (n > MAX_LEN || memchr(data + pos, 0, n)) return rpt_roi_free(&roi), 0;
    memcpy(text[nlines], data + pos, n);
    text[nlines][n] = 0;
    is_rec[nlines] = 0;
    if (n >= 2 && text[nlines][0] == 'R') {
      char *end;
      unsigned long long v = strtoull(text[nlines] + 1, &end, 10);
      if (*end == 0 && text[nlines][1] >= '0' && text[nlines][1] <= '9') {
        is_rec[nlines] = 1;
        memset(&recs[nrec], 0, sizeof recs[nrec]);
        recs[nrec].start = v;
        recs[nrec].stop = v;
        rec_line[nrec] = (uint32_t)nlines + 1;
        nrec++;
      }
    }
    nlines++;
    pos += n + 1;
  }

  /* what input.c does while reading */
  int r = 0;
  for (int i = 0; i < nlines; i++) {
    if (is_rec[i]) {
      rpt_roi_record(&roi, (uint64_t)i + 1, &recs[r], (uint32_t)r, 0);
      r++;
    } else {
      rpt_roi_text(&roi, (uint64_t)i + 1, text[i], strlen(text[i]));
    }
  }
  rpt_data d;
  memset(&d, 0, sizeof d);
  d.recs = recs;
  d.n = (size_t)nrec;
  const char *paths[1] = {"f"};
  d.paths = paths;
  d.npaths = 1;
  rpt_roi_file_end(&roi, &d, nrec ? (uint32_t)nrec - 1 : UINT32_MAX, 0);
  if (nrec == 0) { /* rpt stops before resolving */
    rpt_roi_free(&roi);
    return 0;
  }
  uint32_t *order = rpt_sort(&d);
  if (!order) abort();
  for (int i = 1; i < nrec; i++)
    if (!key_less(recs, order[i - 1], order[i])) abort();
  size_t got = (size_t)-1;
  bool ok = rpt_roi_resolve(&roi, &d, order, 0, &got);
  if (ok && got >= d.n) abort();

  /* the model: which record (index), or -1 */
  long want = -1;
  if (roi.kind == ROI_LINE) {
    for (int i = 0; i < nrec; i++)
      if (rec_line[i] >= roi.line) {
        want = i;
        break;
      }
    if (want < 0 && roi.line <= (uint64_t)nlines) want = nrec - 1; /* trailing text */
  } else if (roi.kind == ROI_TIME) {
    uint64_t t0 = recs[order[0]].start;
    for (int i = 0; i < nrec; i++)
      if (recs[order[i]].start - t0 >= roi.time_ns) {
        want = (long)order[i];
        break;
      }
  } else { /* regex: which records have a matching block */
    bool match[MAX_LINES] = {false};
    bool block = false;
    r = 0;
    for (int i = 0; i < nlines; i++) {
      if (is_rec[i]) {
        match[r++] = block;
        block = false;
      } else if (regexec(&roi.re, text[i], 0, NULL, 0) == 0) {
        block = true;
      }
    }
    if (block) match[nrec - 1] = true;
    uint64_t k = 0;
    for (int i = 0; i < nrec && want < 0; i++)
      if (match[order[i]] && ++k == roi.nth) want = (long)order[i];
  }
  if (ok != (want >= 0)) abort();
  if (ok && order[got] != (uint32_t)want) abort();
  free(order);
  rpt_roi_free(&roi);
  return 0;
}
