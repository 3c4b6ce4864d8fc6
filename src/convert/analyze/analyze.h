/* rtg-convert --analyze: why each GPU was idle.
 *
 *   sink.c    keeps the ops of each (process, GPU) and the runtime calls of
 *             each process as the events come, then finds who enqueued
 *             each op (corr: -> the HIP call's thread; else the host
 *             dispatch record's; else the process's main thread);
 *   attrib.c  the time model and the causes (attrib.h), on interval sets
 *             (ivset.c);
 *   report.c  the verdicts, the table of causes and the JSON.
 *
 * It keeps the ops and calls in memory (32 and 32 bytes each), not the
 * events: the host causes need the calls around each idle moment, which
 * come in any order relative to the GPU records. */
#ifndef RTG_ANALYZE_H
#define RTG_ANALYZE_H

#include "../convert.h"
#include "attrib.h"

/* One (process, GPU) and its result. */
typedef struct an_dev {
  uint32_t proc;
  rtg_device device;
  an_op *ops;
  size_t nops, cap;
  /* per op: the corr id of the op (UINT64_MAX: none), and its queue << 32 | id */
  uint64_t *corr, *qid;
  an_result res;
  bool ok;
} an_dev;

/* The runtime calls of one process. */
typedef struct an_proc {
  an_call *calls;
  size_t ncalls, cap;
} an_proc;

typedef struct an_state {
  cv_ctx *ctx;
  an_dev *devs;
  uint32_t ndevs, cap;
  rtg_u64map dev_index; /* proc << 32 | device -> index + 1 */
  an_proc *procs;       /* by proc index */
  uint32_t nprocs;
  rtg_u64map corr_call; /* proc << 40 | corr -> index of the HIP call + 1 */
  rtg_u64map host_tid;  /* hash of (proc, queue, id) -> tid of the host dispatch record */
  FILE *json;           /* --analyze=FILE, opened with the other outputs; NULL: none */
} an_state;

/* report.c: prints the verdicts and the tables; writes the JSON to
 * st->json (named path) when there is one, and closes it.  false when it
 * could not be written. */
bool an_report(an_state *st, const char *path);

#endif
