/* The idle causes of rtg-convert --analyze for one (process, GPU), apart
 * from the converter so that tests can feed it by hand.  Span, busy,
 * copy_busy and idle are those of the reports' time model
 * (shared/timemodel.h, its span from shared/tmspan.h); idle is split into
 * causes that add up to it exactly: each idle nanosecond gets the first
 * cause of an_cause that holds.
 *
 * The host causes look at one thread: the one that enqueued the next op on
 * the GPU (the op that starts first at or after the idle moment). */
#ifndef RTG_ANALYZE_ATTRIB_H
#define RTG_ANALYZE_ATTRIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* In precedence order. */
enum an_cause {
  AN_STARTUP,          /* process start to the GPU's first op */
  AN_COPY_ONLY,        /* no kernel runs but a copy does (a barrier waiting for that copy
                          waits for the GPU's own work) */
  AN_DEPENDENCY,       /* a barrier packet with dependency signals waits (from when its queue
                          reaches it to its end) */
  AN_LAUNCH_LATENCY,   /* an op was enqueued (its tick, or its call's end) but has not started */
  AN_HOST_SYNC,        /* nothing enqueued; the thread waits in a synchronisation */
  AN_HOST_API,         /* nothing enqueued; the thread is in another runtime call */
  AN_HOST_OUTSIDE_API, /* nothing enqueued; the thread is in no traced call */
  AN_NCAUSES
};

extern const char *const an_cause_names[AN_NCAUSES];

enum an_op_kind { AN_OP_KERNEL, AN_OP_COPY, AN_OP_BARRIER };

typedef struct an_op {
  uint64_t start, end;
  uint64_t enq;          /* host enqueue time (tick, or the launching call's end); 0: unknown;
                            a barrier with deps: when its queue reached it (it waits from
                            there to its end) */
  uint64_t tid;          /* the thread that enqueued it; 0: unknown (then an_gpu.default_tid) */
  uint64_t api_s, api_e; /* the HIP call that launched it; 0, 0: unknown */
  uint32_t name;         /* caller's name id */
  uint32_t queue;        /* its queue (kernels, barriers); AN_NO_QUEUE: none (copies) */
  uint8_t kind;          /* an_op_kind */
  uint8_t call_flags;    /* the AN_CALL_* flags of the call that launched it */
  bool deps;             /* barrier: it has dependency signals */
  uint32_t waits_for;    /* barrier, copy with dependency signals: what it waited for, the
                            caller's id + 1 (analyze.h: an_awaited); 0: not known */
} an_op;

#define AN_NO_QUEUE UINT32_MAX

/* What a call is, for the causes and the rules (an_call_flags). */
enum {
  AN_CALL_SYNC = 1,     /* a synchronisation (an_is_sync_call) */
  AN_CALL_ALLOC = 2,    /* allocates or frees memory: hipMalloc*, hipFree*, hipHostMalloc... */
  AN_CALL_COPY = 4,     /* a synchronous copy or fill: hipMemcpy*, hipMemset* without Async */
  AN_CALL_LAUNCHED = 8, /* it launched a kernel (set by the caller from corr: ids) */
};

/* A traced runtime call of the process (HIP or HSA). */
typedef struct an_call {
  uint64_t tid, start, end;
  uint32_t name; /* caller's name id */
  bool sync;     /* a synchronisation (an_is_sync_call) */
  uint8_t flags; /* AN_CALL_* */
} an_call;

/* What one (process, GPU) did.  The arrays are the caller's; an_attribute
 * sorts them in place. */
typedef struct an_gpu {
  uint64_t proc_start; /* the process's start (its trace header); 0: its first event */
  uint64_t window_start, window_end; /* 0 / UINT64_MAX: no window */
  uint64_t default_tid;              /* the thread for ops whose tid is unknown */
  an_op *ops;
  size_t nops;
  an_call *calls;
  size_t ncalls;
  bool calls_flat; /* calls are sorted and AN_CALLS_FLAT: taken as they are */
  /* optional: each idle piece [s, e) with its an_cause, as attributed
   * (the pieces of a cause add up to its time; any order), its detail key
   * (an_detail.key: 0 for startup) and its thread (host causes; else 0) */
  void (*piece)(void *arg, int cause, uint64_t s, uint64_t e, uint64_t key, uint64_t tid);
  void *piece_arg;
  /* optional, with piece, for pieces found in parts side by side: n
   * slots taken at once for the pieces that come next (returns the first
   * slot's number), then each of them put in its slot, from any thread */
  size_t (*piece_slots)(void *arg, size_t n);
  void (*piece_put)(void *arg, size_t slot, int cause, uint64_t s, uint64_t e, uint64_t key,
                    uint64_t tid);
} an_gpu;

/* Where a cause's time went, by what named it: the call (host_sync,
 * host_api), the calls before and after (host_outside_api: key =
 * (before + 1) << 32 | (after + 1), 0 = none), the op (launch_latency,
 * copy_only: its name; dependency: AN_DETAIL_WAITS_FOR | (waits_for - 1)
 * of the waiting op when known, else the name of the op after it). */
typedef struct an_detail {
  uint64_t key, tid, ns, count;
} an_detail;

#define AN_MAX_DETAILS 32
#define AN_DETAIL_WAITS_FOR (UINT64_C(1) << 62)

typedef struct an_result {
  uint64_t span_start, span_end, span, busy, copy_busy, idle;
  uint64_t cause[AN_NCAUSES];
  an_detail detail[AN_NCAUSES][AN_MAX_DETAILS]; /* largest first */
  int ndetail[AN_NCAUSES];
  uint64_t kernels, copies;
} an_result;

/* A synchronisation: hip*Synchronize, synchronous hipMemcpy* and hipMemset*,
 * hsa_signal_wait_*, hsa_signal_group_wait_*, hsa_amd_signal_wait_any. */
bool an_is_sync_call(const char *name);
/* AN_CALL_SYNC, AN_CALL_ALLOC, AN_CALL_COPY of a call's name. */
uint8_t an_call_flags(const char *name);

/* The orders an_attribute leaves ops (by start) and calls (by thread and
 * start, the outer call first) in; nothing is written when they are. */
void an_sort_ops(an_op *ops, size_t n);
int an_op_by_start(const void *a, const void *b); /* (qsort order of an_sort_ops) */
void an_sort_calls(an_call *calls, size_t n);

/* The calls (sorted as an_sort_calls leaves them) as segments, each
 * thread's disjoint, non-empty and sorted: a nested call is its outer
 * call's time, but for the part that outlasts it; a new array. What
 * an_attribute makes of calls that are not flat, for callers that attribute
 * several GPUs or queues of one process (an_gpu.calls_flat). */
an_call *an_flatten_calls(const an_call *calls, size_t n, size_t *nseg);

/* What an_sort_calls_shape finds of the calls, once sorted. */
enum {
  AN_CALLS_DISJOINT = 1, /* on each thread each call starts at or after the end of the one
                            before: every call is a top-level one */
  AN_CALLS_NONEMPTY = 2, /* every call ends after it starts */
  AN_CALLS_AFTER = 4,    /* none starts before the given time (the process's start) */
};
#define AN_CALLS_FLAT (AN_CALLS_DISJOINT | AN_CALLS_NONEMPTY)
#define AN_CALLS_TOP (AN_CALLS_DISJOINT | AN_CALLS_AFTER)
/* an_sort_calls, and the AN_CALLS_* that hold of the sorted calls (one
 * pass over calls already sorted). */
unsigned an_sort_calls_shape(an_call *calls, size_t n, uint64_t after);

/* Fills res; false when the GPU has no op (nothing to say). */
bool an_attribute(an_gpu *g, an_result *res);

#endif
