/* Reading the SYMBOL/STACK records at the end of a trace before its events.
 *
 * The tracer symbolizes return addresses once, at process exit, so the
 * SYMBOL records come after every call whose stack uses them, and a one-pass
 * converter would show raw addresses.  Reading the file backwards in chunks
 * until a chunk has no SYMBOL or STACK record costs a few reads, not a
 * second pass.  A STACK record is written before its call (same thread), so
 * those at the end are only a safety net.  Stdin cannot be read this way:
 * its stacks show addresses unless symbols came first. */
#define _GNU_SOURCE /* memmem */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "convert.h"
#include "inrange.h"

#define CHUNK (1u << 20)
#define MAX_TAIL (256ull << 20) /* give up after this much: not a tracer's tail */

/* host of the file: the name in its header line, as the main pass finds
 * it ("" without one) */
static char *file_host(int fd, uint64_t base, uint64_t size) {
  char buf[8192];
  ssize_t n = pread(fd, buf, size < sizeof buf ? (size_t)size : sizeof buf, (off_t)base);
  char *nl = n > 0 ? memchr(buf, '\n', (size_t)n) : NULL;
  rtg_record rec;
  if (nl && rtg_record_parse(buf, (size_t)(nl - buf), &rec, NULL) == RTG_KIND_HEADER)
    return strdup(rec.u.HEADER.host);
  return strdup("");
}

/* A copy of a line, kept for cv_tail_apply. */
static void keep_line(cv_tail *t, const char *p, size_t len) {
  if (t->nlines == t->cap) {
    size_t cap = t->cap ? 2 * t->cap : 8;
    cv_tail_line *l = realloc(t->lines, cap * sizeof *l);
    if (!l) return;
    t->lines = l;
    t->cap = cap;
  }
  char *c = malloc(len + 1);
  if (!c) return;
  memcpy(c, p, len);
  c[len] = 0;
  t->lines[t->nlines++] = (cv_tail_line){c, len};
}

void cv_tail_scan(const char *path, cv_tail *t) {
  memset(t, 0, sizeof *t);
  uint64_t base, size;
  int fd = rtg_inrange_open(path, &base, &size);
  if (fd < 0) return; /* the main pass reports it */
  char *buf = malloc(CHUNK + 1);
  if (!buf || size == UINT64_MAX || size == 0) {
    free(buf);
    close(fd);
    return;
  }
  t->host = file_host(fd, base, size);
  t->read = t->host != NULL;
  uint64_t end = size, scanned = 0;
  while (end > 0 && scanned < MAX_TAIL) {
    uint64_t start = end > CHUNK ? end - CHUNK : 0;
    ssize_t got = pread(fd, buf, (size_t)(end - start), (off_t)(base + start));
    if (got != (ssize_t)(end - start)) break;
    /* complete lines only: the first, cut by the chunk, goes to the next */
    char *p = buf, *e = buf + got;
    if (start > 0) {
      char *nl = memchr(buf, '\n', (size_t)got);
      if (!nl) { /* one huge line: skip it */
        end = start;
        continue;
      }
      p = nl + 1;
    }
    uint64_t next_end = start + (uint64_t)(p - buf);
    int found = 0;
    while (p < e) {
      char *nl = memchr(p, '\n', (size_t)(e - p));
      size_t len = nl ? (size_t)(nl - p) : (size_t)(e - p);
      /* cheap filter before parsing: only RTG stack/symbol lines matter */
      if (len > 5 && !memcmp(p, "RTG: ", 5) &&
          (memmem(p, len, " symbol ", 8) || memmem(p, len, " stack ", 7))) {
        size_t kept = t->nlines;
        keep_line(t, p, len); /* (before the parser writes into the line) */
        rtg_record rec;
        enum rtg_kind k = rtg_record_parse(p, len, &rec, NULL);
        if (k == RTG_KIND_SYMBOL || k == RTG_KIND_STACK)
          found++;
        else if (t->nlines > kept)
          free(t->lines[--t->nlines].s);
      }
      p = nl ? nl + 1 : e;
    }
    scanned += end - next_end;
    end = next_end;
    if (!found) break; /* before the symbols: done */
  }
  free(buf);
  close(fd);
}

void cv_tail_apply(cv_ctx *ctx, cv_tail *t) {
  if (t->read) {
    uint32_t host = cv_host(ctx, t->host);
    for (size_t i = 0; i < t->nlines; i++) {
      rtg_record rec;
      rtg_record_parse(t->lines[i].s, t->lines[i].len, &rec, NULL);
      cv_take_stack_or_symbol(ctx, host, &rec);
    }
  }
  cv_tail_free(t);
}

void cv_tail_free(cv_tail *t) {
  for (size_t i = 0; i < t->nlines; i++) free(t->lines[i].s);
  free(t->lines);
  free(t->host);
  memset(t, 0, sizeof *t);
}

void cv_prescan_tail(cv_ctx *ctx, const char *path) {
  cv_tail t;
  cv_tail_scan(path, &t);
  cv_tail_apply(ctx, &t);
}
