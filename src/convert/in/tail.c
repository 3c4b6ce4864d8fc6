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

/* host of the file: from its header line, as the main pass finds it */
static uint32_t file_host(cv_ctx *ctx, int fd, uint64_t base, uint64_t size) {
  char buf[8192];
  ssize_t n = pread(fd, buf, size < sizeof buf ? (size_t)size : sizeof buf, (off_t)base);
  char *nl = n > 0 ? memchr(buf, '\n', (size_t)n) : NULL;
  rtg_record rec;
  if (nl && rtg_record_parse(buf, (size_t)(nl - buf), &rec, NULL) == RTG_KIND_HEADER)
    return cv_host(ctx, rec.u.HEADER.host);
  return cv_host(ctx, "");
}

void cv_prescan_tail(cv_ctx *ctx, const char *path) {
  uint64_t base, size;
  int fd = rtg_inrange_open(path, &base, &size);
  if (fd < 0) return; /* the main pass reports it */
  char *buf = malloc(CHUNK + 1);
  if (!buf || size == UINT64_MAX || size == 0) {
    free(buf);
    close(fd);
    return;
  }
  uint32_t host = file_host(ctx, fd, base, size);
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
        rtg_record rec;
        enum rtg_kind k = rtg_record_parse(p, len, &rec, NULL);
        if (k == RTG_KIND_SYMBOL || k == RTG_KIND_STACK) {
          cv_take_stack_or_symbol(ctx, host, &rec);
          found++;
        }
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
