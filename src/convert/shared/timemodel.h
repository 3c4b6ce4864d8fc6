/* The one time model of rtg-convert's reports (--gaps, --stats, --summary,
 * --sqlite, the gap slices of the timelines and --analyze), per (process,
 * GPU) and per (process, GPU, queue):
 *
 *   span      = [the process's start, the end of its last op there),
 *               clipped to the --start/--end window; the process's start
 *               is its trace header's, else its first traced call's, else
 *               its first op's;
 *   busy      = the union of its kernels (compute);
 *   copy_busy = the union of its copies, reported beside busy, not in it
 *               (a queue has no copies);
 *   barriers are waits, not work: they end the span but are not busy;
 *   idle      = span - busy.
 *
 * The ops of a GPU: its kernels and barriers, and the copies timed on it
 * or, when timed on a host agent, the copies to (else from) it.
 *
 * tm_index computes it as the events stream by (bounded memory: the gap
 * trackers of gaptrack.h); --analyze keeps every op and computes busy with
 * its interval sets, from the same span (tm_span) and op rules (tm_op). */
#ifndef RTG_CONVERT_TIMEMODEL_H
#define RTG_CONVERT_TIMEMODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "convert.h"
#include "gapindex.h"
#include "tmspan.h"

enum tm_kind { TM_KERNEL, TM_COPY, TM_BARRIER };

/* The GPU and kind an event counts for; false: it is no GPU op. */
bool tm_op(const cv_ctx *ctx, const cv_event *ev, rtg_device *gpu, enum tm_kind *kind);

typedef struct tm_totals {
  uint64_t span_start, span_end, span, busy, copy_busy, idle;
} tm_totals;

/* One (process, GPU) (queue GAP_DEVICE) or (process, GPU, queue): base.gt
 * holds its kernels, whose gaps within the span are its idle gaps. */
typedef struct tm_res {
  gap_res base;
  gaptrack mixed;       /* its kernels (GT_COMPUTE) and copies (GT_COPY): copy_busy, overlap */
  uint64_t first, last; /* of its ops; first > last: none yet */
  uint32_t first_name;  /* the kernel that starts first */
  uint64_t first_kernel;
  uint64_t kernels, copies, barriers;
  tm_totals t; /* after tm_finish, where ok */
  bool ok;
} tm_res;

/* The idle gaps go to on_gap (any order; the gaps of an entry add up to its
 * idle time): those between its kernels as they are swept, the one from the
 * span's start to its first kernel and the one from its last kernel to the
 * span's end at tm_finish (their missing side named UINT32_MAX). */
typedef struct tm_index {
  gap_index x; /* entries of the caller's size, which begin with a tm_res */
  cv_ctx *ctx;
  bool queues;          /* an entry per queue too */
  uint64_t *call_start; /* by process: its first traced call; 0: none */
  uint32_t ncall;
} tm_index;

void tm_init(tm_index *t, cv_ctx *ctx, size_t entry_size, bool queues, gap_res_fn on_gap,
             void *arg);
/* Counts an event (the calls for the process's start, the ops); returns
 * the entry of its GPU when it was an op, else NULL. */
tm_res *tm_event(tm_index *t, const cv_event *ev);
/* tm_event in two steps, for a caller that counts the ops on a thread of
 * its own (the steps need no cv_ctx there): tm_clip on the dispatching
 * thread (false: no GPU op), tm_add with the result; tm_call for a call. */
typedef struct tm_clipped {
  rtg_device gpu;
  enum tm_kind kind;
  uint64_t start, end; /* within the window */
} tm_clipped;
bool tm_clip(const cv_ctx *ctx, const cv_event *ev, tm_clipped *c);
tm_res *tm_add(tm_index *t, uint32_t proc, uint64_t queue, const tm_clipped *c, uint32_t name);
void tm_call(tm_index *t, uint32_t proc, uint64_t start);
/* Sweeps every entry and fills its totals; the last gaps go out. */
void tm_finish(tm_index *t);
void tm_free(tm_index *t);

/* The process's start as the model takes it, once every event is in. */
uint64_t tm_proc_start(const tm_index *t, uint32_t proc);

#endif
