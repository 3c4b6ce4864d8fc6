/* --split-size: the Chrome JSON cut into time windows a browser can open.
 *
 * The whole document is written first to an unlinked temporary file
 * beside the output (the normal writer, unchanged), then read twice:
 *   1. each event's start time and length, in file order; the events
 *      sorted by start are dealt into windows, a new window when the next
 *      event would take the part past SIZE (the frame and every metadata
 *      event counted in each part);
 *   2. each event copied to the part of its window, the metadata events
 *      (process and track names, sort orders: "ph":"M") into every part.
 * A slice stays whole in the window of its start: cutting it would make
 * two events of one, and the union of the parts would no longer be the
 * trace.  A flow's "f" goes with the "s" written just before it (chrome.c
 * writes the two ends together), so a part holds whole arrows only.
 * Then NAME.index.json lists each part's file, time range (its first
 * start, last start and last end), size and event count. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chrome.h"
#include "convert.h"
#include "outfile.h"
#include "shared/split.h"
#include "xalloc.h"

typedef struct sev {
  uint64_t ts;         /* start, ns (the flow's start for an "f") */
  uint64_t end;        /* ts + dur, ns */
  uint32_t len : 31;   /* bytes of its line, with ",\n" */
  uint32_t joined : 1; /* an "f": in the part of the "s" just before it */
  uint32_t idx;        /* index in file order */
} sev;

/* "123.456" (microseconds, up to three decimals) as ns */
static uint64_t us_to_ns(const char *p) {
  uint64_t v = 0;
  while (*p >= '0' && *p <= '9') v = v * 10 + (uint64_t)(*p++ - '0');
  v *= 1000;
  if (*p == '.') {
    uint64_t m = 100;
    for (p++; *p >= '0' && *p <= '9' && m; p++, m /= 10) v += (uint64_t)(*p - '0') * m;
  }
  return v;
}

/* The top-level member key of an event line (outside any string and any
 * nested object); NULL when absent. */
static const char *member(const char *s, const char *key) {
  size_t kl = strlen(key);
  int depth = 0;
  for (const char *p = s; *p; p++) {
    if (*p == '"') {
      const char *q = p + 1;
      while (*q && *q != '"') q += q[0] == '\\' && q[1] ? 2 : 1;
      if (!*q) return NULL;
      if (depth == 1 && q[1] == ':' && (size_t)(q - p - 1) == kl && !memcmp(p + 1, key, kl))
        return q + 2;
      p = q;
    } else if (*p == '{' || *p == '[') {
      depth++;
    } else if (*p == '}' || *p == ']') {
      depth--;
    }
  }
  return NULL;
}

static int by_ts(const void *a, const void *b) {
  const sev *x = a, *y = b;
  if (x->ts != y->ts) return x->ts < y->ts ? -1 : 1;
  return x->idx < y->idx ? -1 : x->idx > y->idx;
}

bool cv_json_split(FILE *whole, const char *out, uint64_t size, bool quiet) {
  bool ok = false;
  cv_split_part *pi = NULL;
  char *line = NULL;
  size_t cap = 0;
  ssize_t n;
  char *head = NULL, *meta = NULL;
  size_t head_len = 0, meta_len = 0, meta_cap = 0;
  sev *ev = NULL, *sorted = NULL;
  size_t nev = 0, ev_cap = 0;
  uint32_t *part_of = NULL;
  FILE **pf = NULL;
  char **names = NULL;
  size_t nparts = 0;
  static const char tail[] = "\n]}\n";
  uint64_t last_s_ts = 0;
  bool after_s = false, in_head = true;

  if (fflush(whole) || fseek(whole, 0, SEEK_SET)) goto io;
  /* pass 1: the frame, the metadata, each event's start and length */
  while ((n = getline(&line, &cap, whole)) > 0) {
    if (!strncmp(line, "{\"ph\":\"", 7)) {
      size_t len = (size_t)n;
      if (line[len - 1] == '\n') len--;
      if (len && line[len - 1] == ',') len--;
      if (line[7] == 'M') {
        if (meta_len + len + 2 > meta_cap) {
          meta_cap = (meta_len + len + 2) * 2;
          meta = rtg_xrealloc(meta, meta_cap, "the split output's metadata");
        }
        memcpy(meta + meta_len, line, len);
        memcpy(meta + meta_len + len, ",\n", 2);
        meta_len += len + 2;
        after_s = false;
        continue;
      }
      if (nev == ev_cap) {
        ev_cap = ev_cap ? ev_cap * 2 : 4096;
        ev = rtg_xrealloc(ev, ev_cap * sizeof *ev, "the split output's event table");
      }
      const char *t = member(line, "ts"), *d = member(line, "dur");
      uint64_t ts = t ? us_to_ns(t) : 0;
      uint64_t end = ts + (d ? us_to_ns(d) : 0);
      bool joined = line[7] == 'f' && after_s;
      if (joined) ts = last_s_ts; /* the arrow's part: its start's (sorted next to it) */
      after_s = line[7] == 's';
      if (after_s) last_s_ts = ts;
      if (len + 2 > INT32_MAX) {
        rtg_error("cannot split output: path=%s: an event of %zu bytes", out, len);
        goto done;
      }
      ev[nev] = (sev){ts, end, (uint32_t)(len + 2), joined, (uint32_t)nev};
      nev++;
    } else if (in_head) { /* up to and with the line that opens "traceEvents" */
      in_head = strncmp(line, "\"traceEvents\":[", 15) != 0;
      head = rtg_xrealloc(head, head_len + (size_t)n, "the split output's head");
      memcpy(head + head_len, line, (size_t)n);
      head_len += (size_t)n;
    }
  }
  if (ferror(whole)) goto io;
  size_t fixed = head_len + meta_len + sizeof tail;
  if (fixed >= size) {
    rtg_error("--split-size %" PRIu64 ": smaller than the names of the tracks every part holds "
              "(%zu bytes); nothing written",
              size, fixed);
    goto done;
  }

  /* windows: the events by start, a new part when the next would not fit */
  sorted = rtg_xmalloc((nev ? nev : 1) * sizeof *sorted, "the split output's event table");
  memcpy(sorted, ev, nev * sizeof *ev);
  qsort(sorted, nev, sizeof *sorted, by_ts);
  part_of = rtg_xmalloc((nev ? nev : 1) * sizeof *part_of, "the split output's event table");
  pi = rtg_xcalloc(nev + 1, sizeof *pi, "the split output's parts");
  nparts = 1;
  pi[0].bytes = fixed;
  for (size_t i = 0; i < nev; i++) {
    sev *e = &sorted[i];
    cv_split_part *p = &pi[nparts - 1];
    if (p->events && !e->joined &&
        p->bytes + e->len + (i + 1 < nev && sorted[i + 1].joined ? sorted[i + 1].len : 0) > size) {
      p = &pi[nparts++];
      p->bytes = fixed;
    }
    if (!p->events || e->ts < p->from) p->from = e->ts;
    if (e->ts > p->last) p->last = e->ts;
    if (e->end > p->to) p->to = e->end;
    p->bytes += e->len;
    p->events++;
    part_of[e->idx] = (uint32_t)(nparts - 1);
  }

  /* pass 2: each event to its part */
  pf = rtg_xcalloc(nparts, sizeof *pf, "the split output's parts");
  names = rtg_xcalloc(nparts, sizeof *names, "the split output's parts");
  for (size_t k = 0; k < nparts; k++) {
    char num[32];
    snprintf(num, sizeof num, "%03zu", k);
    names[k] = cv_split_name(out, num);
    pf[k] = rtg_out_open(names[k]);
    if (!pf[k]) {
      rtg_error("cannot create output: path=%s: %m", names[k]);
      goto done;
    }
    fwrite(head, 1, head_len, pf[k]);
    fwrite(meta, 1, meta_len, pf[k]);
  }
  if (fseek(whole, 0, SEEK_SET)) goto io;
  size_t i = 0;
  while ((n = getline(&line, &cap, whole)) > 0) {
    if (strncmp(line, "{\"ph\":\"", 7) || line[7] == 'M') continue;
    size_t len = (size_t)n;
    if (line[len - 1] == '\n') len--;
    if (len && line[len - 1] == ',') len--;
    if (i >= nev) break;
    fwrite(line, 1, len, pf[part_of[i]]);
    fwrite(",\n", 1, 2, pf[part_of[i]]);
    i++;
  }
  if (ferror(whole) || i != nev) goto io;
  /* the tail goes over the ",\n" after a part's last event */
  for (size_t k = 0; k < nparts; k++) {
    if (pi[k].events || meta_len) fseek(pf[k], -2, SEEK_CUR);
    fwrite(tail, 1, sizeof tail - 1, pf[k]);
    long at = ftell(pf[k]);
    bool w = rtg_out_close(pf[k]);
    pf[k] = NULL;
    if (!w) {
      rtg_error("cannot write output: path=%s: %s", names[k], rtg_out_why());
      goto done;
    }
    pi[k].bytes = at < 0 ? pi[k].bytes : (uint64_t)at;
  }
  ok = cv_split_report(out, size, nparts, names, pi, quiet);
  goto done;
io:
  rtg_error("cannot read back the JSON to split: path=%s: %s", out, strerror(errno));
done:
  for (size_t k = 0; pf && k < nparts; k++)
    if (pf[k]) fclose(pf[k]);
  for (size_t k = 0; names && k < nparts; k++) free(names[k]);
  free(names);
  free(pf);
  free(pi);
  free(part_of);
  free(sorted);
  free(ev);
  free(meta);
  free(head);
  free(line);
  return ok;
}
