/* The analysis behind rtg-convert --analyze (and the HTML report): why
 * each GPU was idle.
 *
 *   model.c   keeps the ops of each (process, GPU) and the runtime calls of
 *             each process as the events come, then finds who enqueued
 *             each op (corr: -> the HIP call's thread; else the host
 *             dispatch record's; else the process's main thread) and runs
 *             the attribution;
 *   attrib.c  the time model and the causes (attrib.h), on interval sets
 *             (ivset.c);
 *   report.c  the verdicts, the table of causes and the JSON;
 *   sink.c    the --analyze sink.
 *
 * It keeps the ops and calls in memory (an_op, an_call, and until the ops
 * are resolved their corr ids, queue ids and signals), not the events: the
 * host causes need the calls around each idle moment, which come in any
 * order relative to the GPU records, and the critical path the whole graph
 * (src/convert/README.md, "Memory"). */
#ifndef RTG_ANALYZE_H
#define RTG_ANALYZE_H

#include <pthread.h>

#include "../convert.h"
#include "attrib.h"
#include "critical.h"
#include "launch.h"
#include "memory.h"
#include "rules.h"
#include "shared/occupancy.h"

/* The idle causes of one queue of a GPU: the same model on its ops alone. */
typedef struct an_queue {
  uint32_t queue;
  an_result res;
  bool ok;
} an_queue;

/* What a waiting barrier waited for (an_op.waits_for - 1): the op whose
 * completion signal it waited on (the latest to end before it did, on any
 * GPU or copy engine of its process), or where that op is a barrier (an
 * event's marker), the work before it in its queue. */
typedef struct an_awaited {
  uint32_t name;     /* cv_intern id */
  rtg_device device; /* its GPU */
  uint32_t queue;    /* AN_NO_QUEUE: a copy */
} an_awaited;

/* A barrier with dependency signals: its op, its signals and the op that
 * last completed on one of them before it ended (the critical path's
 * dependency edge; src_dev UINT32_MAX: none found). */
typedef struct an_waiter {
  size_t op;
  uint64_t dep[5];
  uint32_t src_dev;
  size_t src_op;
} an_waiter;

/* An idle piece [start, end) of a (process, GPU), of one of its queues or
 * of the GPU (queue AN_NO_QUEUE), with its an_cause, its detail key
 * (an_detail.key; an_detail_text says it) and its thread (host causes). */
typedef struct an_piece {
  uint32_t proc;
  rtg_device device;
  uint32_t queue;
  int cause;
  uint64_t start, end, key, tid;
} an_piece;
typedef void (*an_piece_fn)(void *arg, const an_piece *p);
#define AN_MAX_PIECE_FNS 4

/* Idle pieces kept by a task until they go to the callbacks in order. */
typedef struct an_pieces {
  an_piece *v;
  size_t n, cap;
  uint32_t proc, queue; /* of the pieces coming */
  rtg_device device;
} an_pieces;

/* One (process, GPU) and its result. */
typedef struct an_dev {
  uint32_t proc;
  rtg_device device;
  an_op *ops;
  size_t nops, cap;
  /* per op: the corr id of the op (UINT64_MAX: none), and its queue << 32 | id */
  uint64_t *corr, *qid;
  uint64_t *sig;      /* per op: its completion signal, 0: none */
  uint32_t *waiter;   /* per op: the thread that waited for its end, 0: none (NULL: no op
                         has one) */
  an_waiter *waiters; /* its barriers with dependency signals */
  size_t nwaiters, capwaiters;
  an_result res;
  bool ok;
  an_queue *queues; /* by queue */
  size_t nqueues;
  an_launch launch;
  an_rule rules[AN_NRULES]; /* the GPU rules (from AN_FIRST_GPU_RULE) */
  uint32_t rules_wait; /* (an_finish) its tasks left before its rules: they run after the last */
  an_pieces gpu_pieces, queue_pieces; /* (with piece callbacks, during an_finish) */
} an_dev;

/* The runtime calls of one process. */
typedef struct an_proc {
  an_call *calls;
  size_t ncalls, cap;
  uint64_t (*corrs)[2]; /* its HIP calls' corr ids: corr, index in calls (before sorting) */
  size_t ncorrs, capcorrs;
  uint64_t start;                     /* its start (as the spans of its GPUs) */
  uint64_t first_launch, last_launch; /* of its kernels; first > last: none */
  an_rule rules[AN_NRULES];           /* the process rules (below AN_FIRST_GPU_RULE) */
  an_mem *mem;                        /* its calls that matter to host memory */
  size_t nmem, capmem;
  uint64_t mem_unchecked; /* async copies without arguments */
  unsigned calls_shape;   /* an_sort_calls_shape's of its calls (from its start) */
  /* its calls as the idle causes' segments (an_flatten_calls), made once
   * for all its GPUs and queues by the first task to need them (calls
   * themselves when they are AN_CALLS_FLAT) */
  an_call *segs;
  size_t nsegs;
  bool segs_made;
  pthread_mutex_t segs_mu;
  an_cp_result cp; /* its critical path */
  bool has_cp;
} an_proc;

typedef struct an_state {
  cv_ctx *ctx;
  an_dev *devs;
  uint32_t ndevs, cap;
  rtg_u64map dev_index; /* proc << 32 | device -> index + 1 */
  an_proc *procs;       /* by proc index */
  uint32_t nprocs;
  bool segs_mu_made;   /* an_proc.segs_mu initialised (an_finish) */
  rtg_u64map host_tid; /* hash of (proc, queue, id) -> tid of the host dispatch record */
  an_awaited *awaited; /* what barriers waited for (an_op.waits_for - 1) */
  uint32_t nawaited, capawaited;
  rtg_u64map awaited_index; /* hash of an an_awaited -> its index + 1 */
  uint8_t *call_flags;      /* by name id: AN_CALL_* | CALL_FLAGS_KNOWN; 0: not yet */
  uint32_t ncall_flags;
  /* set before an_finish (an_on_piece): each idle piece of a (process,
   * GPU) (queue AN_NO_QUEUE) and, for those that want them, of each of its
   * queues, with its cause, to each of these (the HTML report bins the
   * GPUs' over time, the timelines draw them all) */
  struct {
    an_piece_fn fn;
    void *arg;
    bool queues;
  } pieces[AN_MAX_PIECE_FNS];
  int npieces;
  bool queue_pieces; /* some want the queues' */
  /* set before an_add: only the idle causes (no launch decomposition, rules,
   * critical path, host memory), for the timelines' gap slices */
  bool idle_only;
  cv_occ occ; /* occupancy per kernel and launch shape (not with idle_only) */
  /* shared.c: the outputs that use it, the one whose events it takes, and
   * whether it is finished */
  uint32_t users;
  const void *feeder;
  bool finished;
} an_state;

/* model.c: an_new, then an_add for each event, then an_finish (results in
 * devs[i].res where devs[i].ok, devs sorted by process and GPU), an_free. */
an_state *an_new(cv_ctx *ctx);
void an_add(an_state *st, const cv_event *ev);
/* before an_finish; queues: fn wants the queues' pieces too */
void an_on_piece(an_state *st, an_piece_fn fn, void *arg, bool queues);
void an_finish(an_state *st);
void an_free(an_state *st);

/* shared.c: one analysis for every output of a run that needs it
 * (--analyze, --html, -g's gap slices), made by the first to ask (who: the
 * asking output's state), fed by that one's events only, finished once,
 * freed with its last user. idle_only: this user needs the causes only. */
an_state *an_shared(cv_ctx *ctx, const void *who, bool idle_only);
void an_shared_add(an_state *st, const void *who, const cv_event *ev);
void an_shared_finish(an_state *st);
void an_shared_release(an_state *st);

/* report.c: the verdicts and the tables as text; the JSON document (its
 * schema is in src/convert/README.md, "Why is my GPU idle?"). */
void an_write_text(const an_state *st, FILE *f);
void an_write_json(const an_state *st, FILE *f);
/* What a piece's detail key of cause says: "in hipMalloc", "between
 * hipMemcpy and hipLaunchKernel", "waiting for K on GPU0 queue 1", "before
 * K"; "" for startup. */
void an_detail_text(const an_state *st, int cause, uint64_t key, char *buf, size_t cap);

#endif
