/* The life of a GPU operation (a kernel dispatch, a barrier, an async
 * copy), the same for every kind, and the interfaces of the files that
 * carry it:
 *   op_begin.c    beginning an op where it is submitted (its id), handing it on
 *   op_pool.c     ops and the pool of tool signals
 *   sigtrack.c    which signal the hardware completes for an op
 *   op_record.c   what an op looks like in the trace
 *   completion.c  reading its times once the hardware is done, by the
 *                 first thread that sees it
 *   waiters.c     one waiter thread per queue (or copy engine pair) for the
 *                 ops nobody waits on; the bound on ops in flight
 *   async_handlers.c  completion in the runtime's async-events thread, for
 *                 ops whose signal has an application handler
 *   gpu_deps.c    packets that make the GPU wait for an op, made to wait
 *                 for the hardware alone
 *   app_view.c    what the application sees of a signal the tracer owns
 * An op is begun where its packet or copy is submitted (queue_intercept.c,
 * copies.c: rtg_op_begin, then the kind's own fields, then rtg_op_submit),
 * completed by an application thread in its wait (signal_hooks.c), by the
 * runtime's async-events thread (async_handlers.c) or by its waiter, and
 * freed by its waiter. */
#ifndef RTG_GPU_OP_H
#define RTG_GPU_OP_H

#include "hsa/hsa_side.h"

#include <linux/futex.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <unistd.h>

typedef enum {
  RTG_OP_DISPATCH,
  RTG_OP_BARRIER_AND,
  RTG_OP_BARRIER_OR,
  RTG_OP_COPY,
  RTG_OP_BARRIER_VALUE /* AMD vendor packet: deps[0] is its signal */
} rtg_op_kind;

typedef struct rtg_op_waiter rtg_op_waiter;

/* The ops of one waiter in flight: counted up when submitted, down once
 * their times are read; submitters sleep on the count (a futex word) when
 * it is at the waiter's limit (waiters.c). */
typedef struct rtg_op_flight {
  _Atomic uint32_t inflight;
  _Atomic uint32_t throttled; /* submitting threads asleep on inflight */
} rtg_op_flight;

typedef struct rtg_op {
  /* The two words a thread that looked the op up earlier may still read
   * while the op begins its next life: only ever read and written
   * atomically, and never cleared with the rest (op_pool.c).
   * claim: who completes it, (generation << 2) | RTG_OP_PENDING/CLAIMED/
   * DONE.  The generation changes each time the op is reused, so such a
   * thread cannot claim the next life (completion.c); until its claim
   * succeeds it reads no other member. */
  _Atomic uint32_t claim;
  _Atomic bool queued; /* handed to its waiter: from then on anyone may complete it */
  /* application threads inside a wait for this op's decrement, which
   * complete it themselves as they return: its waiter leaves it to them for
   * a while (waiters.c).  Each thread adds and takes away its own one, in
   * whatever life the op is by then. */
  _Atomic uint32_t app_waits;
  /* the first application thread that waited for this op's completion
   * (a wait on its signal, or a load that saw it finish): (generation <<
   * 32) | tid, of the life it waited in (rtg_op_mark_waited) */
  _Atomic uint64_t waited_by;
  struct rtg_op *next; /* the rest: cleared at each reuse */
  /* a forward's place among its application signal's forwards in flight,
   * oldest first (sigtrack.c, under the signal's lock) */
  struct rtg_op *fwd_prev, *fwd_next;
  rtg_op_kind kind;
  hsa_signal_t signal;           /* the signal the hardware decrements */
  hsa_signal_value_t wait_below; /* done when the signal's value < this */
  bool tool_signal;              /* ours (pooled): recycle; else the app's: subtract 1 */
  /* an owner left at the application's value (its signal has a handler of
   * the application's, sigtrack.c): nothing to subtract; done also once
   * the hardware wrote its end time, which bind zeroed */
  bool quiet;
  bool forward;                /* tool signal standing in for app_signal (sigtrack.c) */
  uint64_t fwd_start, fwd_end; /* raw times to store in app_signal */
  const char *rename;          /* RTG_KERNEL_RENAME: the ROCTx range at submit */
  uint32_t agent, queue;       /* indexes */
  uint32_t agent_queue;        /* per-agent queue index (HCC_PROFILE) */
  hsa_agent_t hsa_agent;
  uint64_t id, seq, corr;
  uint64_t ring_pos;    /* its packet's place among all written to its queue's ring */
  uint64_t tick;        /* when submitted: a stamp (core/stamp.h), as ns once written */
  uint32_t graph, node; /* of a hipGraphLaunch (thread_state.h), 0: none */
  uint64_t kernel_object;
  rtg_dim3 grid, wg;
  uint32_t lds, scratch;
  uint64_t deps[5];
  int64_t bv_value, bv_mask; /* barrier-value: (deps[0] & mask) cond value */
  uint32_t bv_cond;          /* hsa_signal_condition_t */
  /* copies */
  uint64_t bytes;
  const char *copy_kind, *api;
  uint32_t src_agent, dst_agent;
  uint64_t app_signal;
  uint64_t entry_serial; /* of app_signal's entry in sigtrack.c */
  rtg_op_waiter *waiter; /* who frees it */
  rtg_op_flight *flight; /* its waiter's count of ops in flight */
} rtg_op;

enum { RTG_OP_PENDING = 0, RTG_OP_CLAIMED = 1, RTG_OP_DONE = 2 };

/* --------------------------------------------------- beginning an op */

/* op_begin.c: an op of kind for waiter w, made on the submitting thread: its id, the
 * thread's correlation id and the time, and the signal the hardware will
 * complete, bound to the application's signal app (0: none).  NULL when
 * it cannot be tracked (counted as lost_gpu): the packet or copy then goes
 * on untouched.  The caller fills in the kind's fields (agent, queue,
 * packet or copy), then hands the op on with rtg_op_submit, or drops it
 * with rtg_op_cancel when the submission failed. */
RTG_HIDDEN rtg_op *rtg_op_begin(rtg_op_kind kind, rtg_op_waiter *w, hsa_signal_t app);
RTG_HIDDEN void rtg_op_submit(rtg_op *op);
RTG_HIDDEN void rtg_op_cancel(rtg_op *op);

/* op_pool.c: ops are recycled, never freed (a late look-up of a finished
 * op must find memory, whose claim then fails). */
RTG_HIDDEN rtg_op *rtg_op_alloc(void);
RTG_HIDDEN void rtg_op_free(rtg_op *op);
/* Pooled tool signals, recycled only after their op completed; with an
 * event (event): an application thread may block on it (a forward's). */
RTG_HIDDEN hsa_signal_t rtg_tool_signal_get(bool event);
RTG_HIDDEN void rtg_tool_signal_put(hsa_signal_t s, bool event);
RTG_HIDDEN void rtg_tool_signals_destroy(void); /* at process end */
RTG_HIDDEN void rtg_op_pool_after_fork(void);

/* ------------------------------------------------------------ signals */

/* sigtrack.c: choose the signal the hardware completes for op, whose
 * application signal is app (0: none): app itself, raised by one (left as
 * it is when op->quiet is asked), unless another op of app is in flight,
 * then a pooled tool signal forwarded to app on completion (op->quiet
 * cleared).  false: nothing to track with (op not bound). */
RTG_HIDDEN bool rtg_op_bind_signal(rtg_op *op, hsa_signal_t app);
/* The op will not run (its submission failed): undo the binding. */
RTG_HIDDEN void rtg_op_unbind_signal(rtg_op *op);
/* After the op's times were read: the application's signal as the hardware
 * would leave it.  true: the op is kept (its forward waits for another op)
 * and must not be freed by the caller. */
RTG_HIDDEN bool rtg_op_release_signal(rtg_op *op);
/* The op that raised application signal `handle` and is still in flight:
 * its claim word and what tells that the hardware has completed it, copied
 * while it was certainly in this life (under the signal's lock), so that
 * they can be used after another thread completed the op and it began a
 * new life.  false: none (fast when no signal is raised at all). */
typedef struct rtg_owner_ref {
  rtg_op *op;
  uint32_t claim;
  uint64_t signal; /* the signal the hardware decrements: the application's */
  hsa_signal_value_t wait_below;
  bool alone;                /* no other op of the signal (a forward) is in flight */
  bool quiet;                /* not raised: the GPU and the application see the hardware's value */
  const rtg_op_waiter *lane; /* a forward's (rtg_sigtrack_forwards): its queue's waiter */
} rtg_owner_ref;
RTG_HIDDEN bool rtg_sigtrack_owner(uint64_t handle, rtg_owner_ref *out);
/* The forwarded ops of application signal `handle` in flight while it has
 * no owner in flight (then none of its forwards is kept for an owner, and
 * none will be until they all landed), oldest first, at most max, each as
 * an owner's reference to its tool signal (wait_below 1); their number. */
RTG_HIDDEN uint32_t rtg_sigtrack_forwards(uint64_t handle, rtg_owner_ref *out, uint32_t max);
/* Is any op of application signal `handle` in flight (not yet released)? */
RTG_HIDDEN bool rtg_sigtrack_busy(uint64_t handle);
/* The application destroys signal `handle` with ops of it still in flight:
 * its owner is counted as unfinished and given back to its waiter, and
 * none of its ops touches the handle again. */
RTG_HIDDEN void rtg_sigtrack_orphan(uint64_t handle);
RTG_HIDDEN void rtg_sigtrack_init(void);
RTG_HIDDEN void rtg_sigtrack_after_fork(void);

/* --------------------------------------------------------- in the trace */

/* op_record.c: the host's record of a submitted packet (with
 * RTG_HSA_HOST_DISPATCH), and the op's record once it ran from start to
 * stop, with the thread that waited for it (0: none; never dropped). */
RTG_HIDDEN void rtg_op_record_submitted(const rtg_op *op);
RTG_HIDDEN void rtg_op_record_done(const rtg_op *op, uint64_t start, uint64_t stop,
                                   uint32_t waiter);

/* --------------------------------------------------------- completion */

/* completion.c: complete the op of o now, on the calling thread, if the
 * hardware has completed it and nobody else has claimed it (o->claim is
 * its claim word as looked up): read its times, record it, and give the
 * application's signal the value the hardware left. */
RTG_HIDDEN bool rtg_op_try_complete(const rtg_owner_ref *o);
/* Has the hardware finished the op of o (its signal below wait_below, or
 * a quiet op's end time written)?  Reads the signal's memory only. */
RTG_HIDDEN bool rtg_owner_hw_done(const rtg_owner_ref *o);
/* The hardware has finished the owner o of application signal handle:
 * complete it here, or, when another thread claimed it first, yield until
 * that thread has released the signal.  The application must never see
 * an op the hardware finished as unfinished (a wait with a short timeout,
 * HIP's 10 us, would take it for unfinished), nor a quiet op's signal
 * finished before its times are read. */
RTG_HIDDEN void rtg_op_settle(uint64_t handle, const rtg_owner_ref *o);
/* The calling application thread waits for the op of o to finish (its
 * record names it: waiter). */
RTG_HIDDEN void rtg_op_mark_waited(const rtg_owner_ref *o);
/* The waiter's turn at op: true when it is finished with it (completed by
 * whichever thread, and freed), false to come back later. */
RTG_HIDDEN bool rtg_op_waiter_try(rtg_op *op);
/* For an op still in its waiter's FIFO (not freed meanwhile): has some
 * thread completed it, or has the hardware finished it?  A stale answer is
 * only ever "no". */
RTG_HIDDEN bool rtg_op_seen_done(const rtg_op *op);
/* The same, or has the hardware written the end time of the op's packet
 * (an application signal's, zeroed when the op was bound to it): the
 * packet has run, so every packet before it was launched, even when the
 * application's changes to its signal keep it from looking finished. */
RTG_HIDDEN bool rtg_op_seen_ended(const rtg_op *op);

/* ------------------------------------------------------------ waiters */

/* The op's times were read: it is no longer in flight, and a submitter
 * waiting for room may go on. */
static inline void rtg_op_landed(rtg_op *op) {
  rtg_op_flight *f = op->flight;
  atomic_fetch_sub_explicit(&f->inflight, 1, memory_order_seq_cst);
  if (atomic_load_explicit(&f->throttled, memory_order_seq_cst)) /* a syscall only then */
    syscall(SYS_futex, &f->inflight, FUTEX_WAKE_PRIVATE, 64, NULL, NULL, 0);
}

/* waiters.c: a FIFO of ops served by one thread, with a bound on the ops
 * in flight (limit); ring: the size of the hardware ring its ops' packets
 * are written to (0: none, copies). */
RTG_HIDDEN rtg_op_waiter *rtg_waiter_create(uint32_t limit, uint32_t ring);
/* Queue op for its waiter (op->waiter). */
RTG_HIDDEN void rtg_waiter_submit(rtg_op *op);
/* Before submitting `more` ops to w in `packets` ring slots: sleep while
 * they would take it past its limit of ops in flight, unless no op has
 * landed for RTG_THROTTLE_MS and the ring certainly has room (counted as
 * throttle_releases). */
RTG_HIDDEN void rtg_waiter_throttle(rtg_op_waiter *w, uint32_t more, uint32_t packets);
/* The ring position of the next packet written for w's queue, and the
 * count of packets just written (under the queue's doorbell lock). */
RTG_HIDDEN uint64_t rtg_waiter_ring_pos(const rtg_op_waiter *w);
RTG_HIDDEN void rtg_waiter_wrote(rtg_op_waiter *w, uint64_t packets);
/* Stop and free w (its queue is destroyed) after at most ms for its ops. */
RTG_HIDDEN void rtg_waiter_destroy(rtg_op_waiter *w, int ms);
/* Wait for all waiters' ops, at most ms; count what is left unfinished and
 * stop the waiters (process end). */
RTG_HIDDEN void rtg_waiters_finish(int ms);
RTG_HIDDEN void rtg_waiters_restart(void);
/* Wait for all waiters' ops, at most ms, and leave them running. */
RTG_HIDDEN void rtg_waiters_quiesce(int ms);
/* Ops in flight now, without a lock. */
RTG_HIDDEN uint64_t rtg_waiters_inflight(void);
RTG_HIDDEN void rtg_waiters_after_fork(void);

/* ---------------------------------------------------- the hooks' setup */

RTG_HIDDEN void rtg_kernel_names_init(void);
typedef struct rtg_kernel_info rtg_kernel_info;
typedef struct rtg_kernel_name {
  const char *mangled;   /* symbol without ".kd" */
  const char *demangled; /* NULL when not a C++ name */
  const char *symbol;    /* as the code object names it (HCC_PROFILE) */
  rtg_kernel_info *info; /* its KERNEL record (id, resources); NULL when not known */
  uint64_t id;           /* its kernel id, 0 when not known */
} rtg_kernel_name;
/* The names of a kernel (kept until exit), "unknown" when not known. */
RTG_HIDDEN rtg_kernel_name rtg_kernel_name_of(uint64_t kernel_object);
/* For a format function: the KERNEL record of info at out, unless it was
 * written already (each is written once per trace file, before the first
 * dispatch of the kernel that names it); the length, 0 for none. */
RTG_HIDDEN size_t rtg_kernel_info_format(char *out, size_t cap, rtg_kernel_info *info);
/* Fork child: its trace file has none of the KERNEL records yet. */
RTG_HIDDEN void rtg_kernel_names_after_fork(void);

RTG_HIDDEN void rtg_signal_hooks_init(void);
/* The application's reads of op times take their turn with the tracer's
 * (completion.c). */
RTG_HIDDEN void rtg_op_times_hooks_init(void);
/* async_handlers.c: an op whose application signal has an application
 * async handler is also completed by the runtime's async-events thread on
 * the hardware's decrement: a quiet one by the handler's wrapper, a raised
 * one by a handler of the tracer's (arm at submission); forget a destroyed
 * signal; install the hsa_amd_signal_async_handler hook. */
RTG_HIDDEN void rtg_async_arm(rtg_op *op);
/* A packet or copy about to make the GPU wait for these signals (its
 * dependencies): the ops that raised them are completed on the hardware's
 * decrement by the runtime's async-events thread, as for an application
 * handler, not when their waiter next looks. */
RTG_HIDDEN void rtg_async_arm_deps(const hsa_signal_t *deps, uint32_t n);
RTG_HIDDEN void rtg_async_forget(uint64_t handle);
/* Has application signal handle a handler of the application's now? */
RTG_HIDDEN bool rtg_async_watched(uint64_t handle);
/* gpu_deps.c: a barrier (kind BARRIER_AND/OR, one dependency) or
 * barrier-value packet pkt waiting on a signal the tracer raised, made to
 * wait on the GPU alone (rewritten in place).  false: left as it was, the
 * caller arms its dependencies (rtg_async_arm_deps). */
RTG_HIDDEN bool rtg_gpu_deps_rewrite(hsa_kernel_dispatch_packet_t *pkt, rtg_op_kind kind);
RTG_HIDDEN void rtg_async_handlers_install(void);

/* app_view.c: what the application sees of signal sig while the tracer
 * owns it: the value v read while o was its owner as the application
 * would see it; a load through real that completes (or settles) an op the
 * hardware finished and gives the application's value; the same with
 * hsa_signal_load_scacquire; and its conditions. */
RTG_HIDDEN hsa_signal_value_t rtg_signal_app_value(hsa_signal_t sig, const rtg_owner_ref *o,
                                                   hsa_signal_value_t v);
RTG_HIDDEN hsa_signal_value_t rtg_signal_load(hsa_signal_value_t (*real)(hsa_signal_t), bool app,
                                              hsa_signal_t sig);
RTG_HIDDEN hsa_signal_value_t rtg_signal_app_load(hsa_signal_t sig);
RTG_HIDDEN bool rtg_signal_condition_met(hsa_signal_condition_t c, hsa_signal_value_t v,
                                         hsa_signal_value_t cmp);
RTG_HIDDEN void rtg_async_after_fork(void);
RTG_HIDDEN void rtg_queue_intercept_init(void);
RTG_HIDDEN void rtg_queues_unload(void);
RTG_HIDDEN void rtg_queues_after_fork(void);
RTG_HIDDEN void rtg_copies_init(void);
RTG_HIDDEN void rtg_copies_after_fork(void);

#endif
