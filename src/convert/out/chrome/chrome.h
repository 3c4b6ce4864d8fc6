/* The Chrome JSON output's parts: chrome.c (the sink) and chrome_pre.c
 * (the text of API calls and kernels, made on the trace reader's threads:
 * the sink's preparation pass, cv_sink.prepare). */
#ifndef RTG_CONVERT_CHROME_H
#define RTG_CONVERT_CHROME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "convert.h"

/* What the preparation needs: read by the producers for every line, so a
 * cache line of its own (nothing written beside it takes it away). */
typedef struct cv_chrome_pre {
  _Alignas(64) uint64_t time_base;
  bool kernel_names;
  const cv_prep_clock *clock; /* the hosts' maps of the files being read (cv_ctx.prep_clock) */
} cv_chrome_pre;

struct rtg_line;
struct rtg_line_space;
/* An API call's or a kernel's Chrome JSON into rtg_line.prep: all of it
 * but the track, which goes at prep_mark (arg: a cv_chrome_pre). */
size_t cv_chrome_prepare(struct rtg_line *l, size_t used, struct rtg_line_space *space, void *arg);

/* --split-size: the whole document, written to whole, cut into time
 * windows of at most size bytes each, out.000.json ..., and their index
 * out.index.json (chrome_split.c).  False after saying why. */
bool cv_json_split(FILE *whole, const char *out, uint64_t size, bool quiet);

#endif
