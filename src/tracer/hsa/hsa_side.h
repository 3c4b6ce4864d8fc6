/* The HSA side of the tracer: the runtime's functions as saved in OnLoad
 * (rtg_real), the functions the application's calls reach (rtg_impl: the
 * runtime's, or a hook of queue_intercept.c, copies.c or kernel_names.c),
 * agents and the GPU-op completion machinery. */
#ifndef RTG_HSA_SIDE_H
#define RTG_HSA_SIDE_H

#include "core/tracer_internal.h"

#include <stdatomic.h>

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <hsa/hsa_ext_finalize.h>
#include <hsa/hsa_ext_image.h>

#include "rtg/hsa_table.h"

typedef void (*hsa_amd_runtime_queue_notifier)(const hsa_queue_t *queue, hsa_agent_t agent,
                                               void *data);
hsa_status_t hsa_amd_queue_intercept_register(hsa_queue_t *queue,
                                              hsa_amd_queue_intercept_handler callback,
                                              void *user_data);
#include "hsa/gen/hsa_api_list.h" /* callback typedefs */

/* One typed pointer per function of the tables, named like the function. */
typedef struct rtg_hsa_fns {
#define RTG_API(T, name, ret, rk, params, call, args) ret(*name) params;
#define RTG_API_VOID(T, name, params, call, args) void(*name) params;
#include "hsa/gen/hsa_api_list.h"
#undef RTG_API
#undef RTG_API_VOID
  /* 5.6+ only (not in the 5.2 headers the list is made from) */
  hsa_status_t (*hsa_amd_memory_async_copy_on_engine)(void *dst, hsa_agent_t dst_agent,
                                                      const void *src, hsa_agent_t src_agent,
                                                      size_t size, uint32_t num_dep_signals,
                                                      const hsa_signal_t *dep_signals,
                                                      hsa_signal_t completion_signal, int engine_id,
                                                      bool force_copy_on_sdma);
} rtg_hsa_fns;

RTG_HIDDEN extern rtg_hsa_fns rtg_real; /* the runtime's, from OnLoad */
RTG_HIDDEN extern rtg_hsa_fns rtg_impl; /* what the application's calls reach */

/* hsa_api.c: the traced wrappers; install into the runtime's tables. */
RTG_HIDDEN void rtg_hsa_api_init(void);
RTG_HIDDEN void rtg_hsa_api_install(void);

/* tables.c: write fn as the entry at byte offset `off` of the normalized
 * (newest-layout) mirror of table `tbl`, if the runtime's table has it. */
enum { RTG_TBL_CORE, RTG_TBL_EXT, RTG_TBL_IMAGE, RTG_TBL_FINALIZER };
RTG_HIDDEN bool rtg_table_set(int tbl, size_t off, rtg_hsa_fn fn);

/* agents.c: agents in the runtime's order, as small stable indexes. */
typedef struct rtg_agent {
  hsa_agent_t agent;
  hsa_device_type_t type;
  uint32_t index;
  uint32_t gpu;    /* position among the GPU agents (HCC_PROFILE's device), 0 if not a GPU */
  uint32_t queues; /* queues created so far, for queue indexes */
  uint32_t copies; /* copies so far (HCC_PROFILE sequence) */
} rtg_agent;
RTG_HIDDEN void rtg_agents_init(void);
RTG_HIDDEN rtg_agent *rtg_agent_find(hsa_agent_t a);
RTG_HIDDEN rtg_agent *rtg_agent_host(void); /* the first CPU agent, or NULL */
/* HCC_PROFILE's device number of the agent of that index: its position
 * among the GPUs (the original counted devices, not HSA agents, so the first
 * GPU is 0 although the CPU agent comes first); 0 for other agents, the
 * default device host-only work went to there. */
RTG_HIDDEN uint32_t rtg_agent_hcc_device(uint32_t index);

/* kernel_names.c */
RTG_HIDDEN void rtg_kernel_names_init(void);
typedef struct rtg_kernel_name {
  const char *mangled;   /* symbol without ".kd" */
  const char *demangled; /* NULL when not a C++ name */
  const char *symbol;    /* as the code object names it (HCC_PROFILE) */
} rtg_kernel_name;
RTG_HIDDEN rtg_kernel_name rtg_kernel_name_of(uint64_t kernel_object);

/* queue_intercept.c */
RTG_HIDDEN void rtg_queue_intercept_init(void);
RTG_HIDDEN void rtg_queue_intercept_fini(void);
RTG_HIDDEN uint32_t rtg_global_queue_index(void);

/* copies.c */
RTG_HIDDEN void rtg_copies_init(void);
RTG_HIDDEN void rtg_copies_fini(void);
RTG_HIDDEN void rtg_copies_after_fork(void);

/* A GPU operation waiting for completion (gpu_ops.c). */
typedef enum {
  RTG_OP_DISPATCH,
  RTG_OP_BARRIER_AND,
  RTG_OP_BARRIER_OR,
  RTG_OP_COPY,
  RTG_OP_BARRIER_VALUE /* AMD vendor packet: deps[0] is its signal */
} rtg_op_kind;
typedef struct rtg_op {
  struct rtg_op *next;
  /* who completes it: (generation << 2) | RTG_OP_PENDING/CLAIMED/DONE.  The
   * generation changes each time the op is reused, so a thread that looked
   * the op up earlier cannot claim its next life (gpu_ops.c). */
  _Atomic uint32_t claim;
  _Atomic bool queued; /* handed to its waiter: from then on anyone may complete it */
  rtg_op_kind kind;
  hsa_signal_t signal;           /* the signal the hardware decrements */
  hsa_signal_value_t wait_below; /* done when the signal's value < this */
  bool tool_signal;              /* ours (pooled): recycle; else the app's: subtract 1 */
  bool forward;                  /* tool signal standing in for app_signal (sigtrack.c) */
  uint64_t fwd_start, fwd_end;   /* raw times to store in app_signal */
  const char *rename;            /* RTG_KERNEL_RENAME: the ROCTx range at submit */
  uint32_t agent, queue;         /* indexes */
  uint32_t agent_queue;          /* per-agent queue index (HCC_PROFILE) */
  hsa_agent_t hsa_agent;
  uint64_t id, seq, corr, tick;
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
  struct rtg_op_waiter *waiter; /* copies: the one chosen at issue */
} rtg_op;

enum { RTG_OP_PENDING = 0, RTG_OP_CLAIMED = 1, RTG_OP_DONE = 2 };

/* Complete op now, on the calling thread, if the hardware has completed it
 * and nobody else has claimed it: read its times, queue its record, and
 * give the application's signal the value the hardware left.  claim is the
 * op's claim word as read when it was looked up (generation, pending). */
RTG_HIDDEN bool rtg_op_try_complete(rtg_op *op, uint32_t claim);

/* A FIFO of ops served by one waiter thread. */
typedef struct rtg_op_waiter rtg_op_waiter;
RTG_HIDDEN rtg_op_waiter *rtg_waiter_create(const char *what, uint32_t limit);
RTG_HIDDEN rtg_op *rtg_op_alloc(void);
/* Queue op; blocks (sleeping) while `limit` ops are in flight. */
RTG_HIDDEN void rtg_waiter_submit(rtg_op_waiter *w, rtg_op *op);
/* Before submitting `more` ops to w: sleep while they would take it past
 * its limit of ops in flight. */
RTG_HIDDEN void rtg_waiter_throttle(rtg_op_waiter *w, uint32_t more);
/* Stop and free w (its queue is destroyed) after at most ms for its ops. */
RTG_HIDDEN void rtg_waiter_destroy(rtg_op_waiter *w, int ms);
/* Wait for all waiters' ops, at most ms; count what is left unfinished. */
RTG_HIDDEN void rtg_waiters_finish(int ms);
/* Wait for all waiters' ops, at most ms, and leave them running (exec). */
RTG_HIDDEN void rtg_waiters_quiesce(int ms);
RTG_HIDDEN void rtg_op_free(rtg_op *op);
RTG_HIDDEN hsa_signal_t rtg_tool_signal_get(void);
RTG_HIDDEN void rtg_tool_signal_put(hsa_signal_t s);
RTG_HIDDEN void rtg_tool_signals_destroy(void); /* at process end */

/* sigtrack.c: choose the signal the hardware completes for op, whose
 * application signal is app (0: none): app itself, raised by one, unless
 * another op of app is in flight or app is a busy-wait signal (no event
 * mailbox: a host wait on it would spin), then a pooled tool signal
 * forwarded to app on completion.  false: nothing to track with (op not bound). */
RTG_HIDDEN bool rtg_op_bind_signal(rtg_op *op, hsa_signal_t app);
/* The op will not run (its submission failed): undo the binding. */
RTG_HIDDEN void rtg_op_unbind_signal(rtg_op *op);
/* After the op's times were read: the application's signal as the hardware
 * would leave it.  true: the op is kept (its forward waits for another op)
 * and must not be freed by the caller. */
RTG_HIDDEN bool rtg_op_release_signal(rtg_op *op);
/* The op that raised application signal `handle` and is still in flight:
 * its claim word and the value below which the hardware has completed it.
 * false: none (fast when no signal is raised at all). */
typedef struct rtg_owner_ref {
  rtg_op *op;
  uint32_t claim;
  hsa_signal_value_t wait_below;
} rtg_owner_ref;
RTG_HIDDEN bool rtg_sigtrack_owner(uint64_t handle, rtg_owner_ref *out);
/* Is any op of application signal `handle` in flight (not yet released)? */
RTG_HIDDEN bool rtg_sigtrack_busy(uint64_t handle);
/* signal_hooks.c: the application's waits and loads complete what they see
 * completed (no thread hop between the hardware and the application). */
RTG_HIDDEN void rtg_signal_hooks_init(void);
RTG_HIDDEN void rtg_sigtrack_init(void);

/* async_handlers.c: an op whose application signal has an application
 * async handler is also completed by the runtime's async-events thread on
 * the hardware's decrement (arm at submission); forget a destroyed signal;
 * install the hsa_amd_signal_async_handler hook. */
RTG_HIDDEN void rtg_async_arm(rtg_op *op);
RTG_HIDDEN void rtg_async_forget(uint64_t handle);
RTG_HIDDEN void rtg_async_handlers_install(void);
RTG_HIDDEN void rtg_async_after_fork(void);
RTG_HIDDEN void rtg_gpu_ops_after_fork(void);

/* tables.c: what process exit does (bounded wait, flush, summary); once. */
RTG_HIDDEN void rtg_finish(void);

/* exec_hook.c: exec* and _exit flush first (GOT patching, got_hook.c). */
RTG_HIDDEN void rtg_exec_hooks_install(void);

/* queue_intercept.c: "and", "or" or "value" for a barrier op, and the
 * text of a barrier-value condition. */
RTG_HIDDEN const char *rtg_barrier_op_name(const rtg_op *op);
RTG_HIDDEN const char *rtg_barrier_cond_name(uint32_t cond);

/* hcc_profile.c: the legacy "profile:" line of one finished op. */
RTG_HIDDEN void rtg_hcc_profile_emit(const rtg_op *op, uint64_t start, uint64_t stop);

#endif
