/* HIP API tracing on ROCm <= 5.3.0: hipRegisterApiCallback and
 * hipRegisterActivityCallback (facts: ROCm/hipamd rocm-5.2.3 src/hip_prof_api.h).
 *
 * Per traced call HIP does, on the calling thread:
 *   entry: data = act(op, NULL, NULL, NULL)    -- the tool supplies the record;
 *          when it returns NULL the call is not traced at all
 *          fill data->args; api(3, op, data, arg); data->phase = EXIT
 *   exit:  api(3, op, data, arg); act(op, NULL, NULL, a_arg)
 * HIP never sets phase to ENTER itself, and the activity callback is the only
 * way to make the API callback fire (it must return the record).  We register the activity
 * callback with a non-NULL a_arg so its two calls can be told apart, and keep
 * a small per-thread stack of records so nested HIP calls (HIP calling its
 * own public API) each get their own.  The record HIP hands the API callback
 * is the start of our frame, which knows its thread's stack: only the entry
 * reads thread-local storage (each access a call, in a dlopen'ed library).
 *
 * The hand-over (the default; RTG_HIP_PATH=callback keeps the callbacks):
 * while any activity callback is registered, HIP profiles every command
 * (its kernels get completion signals and timestamps of their own, which
 * stretches a program that synchronizes often).  So the
 * callbacks trace only the call during which the runtime loaded the
 * tracer, which nothing else can see (it was entered before anything was
 * patched), and the GOT path (hip_got.c) is installed at once for all
 * later calls.  When that call ends, every callback is removed: removing
 * the last one clears HIP's profiler flag (ROCm/hipamd rocm-5.2.3
 * hip_prof_api.h, set_activity).  Meanwhile a call that came through a
 * trampoline is the GOT's (rtg_thread_state.hip_tramp), so no call is
 * recorded twice; HIP's nested calls inside it are not traced either, as
 * the GOT path would not see them.  Removing a callback from inside one is
 * safe: HIP copied both pointers when the call began, and holds no lock
 * while it calls them.
 *
 * Calls can go around the GOT: through a pointer dlsym gave before the
 * tracer loaded, or one looked up with RTLD_DEFAULT.  Kernels and copies
 * show it: after the hand-over every one begins inside a traced call, so
 * one that begins outside any brings the callbacks back for the rest of
 * the run (with the GOT still tracing its calls, and the callbacks the
 * others), with a warning: the calls around the GOT before it are not in
 * the trace. */
#define _GNU_SOURCE
#include "hip_internal.h"

#include <dlfcn.h>
#include <string.h>

#define DEPTH 8
/* >= sizeof(hip_api_data_t) of the releases on this path (832) */
#define DATA_SIZE 1024

typedef struct frame {
  _Alignas(16) unsigned char data[DATA_SIZE]; /* first: HIP's record is the frame */
  rtg_hip_call call;
  int *depth; /* the stack it is on */
  uint32_t magic;
} frame;

enum { FRAME_MAGIC = 0x72746766 };

typedef struct stack {
  frame frames[DEPTH];
  int depth;
} stack;
static __thread stack thread_stack;

typedef int (*register_fn)(uint32_t op, void *fun, void *arg);
typedef int (*remove_fn)(uint32_t op);
static register_fn reg_api, reg_act;
static remove_fn rm_api, rm_act;
static uint32_t registered_last;
/* The hand-over's stage (atomic). */
enum {
  CALLBACKS_ONLY, /* RTG_HIP_PATH=callback, or no hand-over possible */
  LOADING,        /* the callbacks trace the loading call, the GOT the others */
  GOT_ONLY,       /* callbacks removed */
  BOTH            /* callbacks back for the calls around the GOT */
};
static int stage;
static rtg_thread_state *loader; /* the thread that loaded the tracer */
static int cb_frames;            /* calls the callbacks trace, in flight (atomic) */

static void remove_callbacks(void);

#define EXIT_MARK ((void *)1)

static void *activity_cb(uint32_t op, void *record, const void *data, void *arg) {
  if (arg == EXIT_MARK) return NULL; /* exit: the API callback's exit popped the frame */
  if (rtg_inside()) return NULL;     /* our own calls into HIP */
  int st = __atomic_load_n(&stage, __ATOMIC_ACQUIRE);
  if (st == GOT_ONLY) return NULL; /* (a call that began as they went) */
  if (st != CALLBACKS_ONLY && rtg_tls.hip_tramp) {
    /* the GOT's; and with no call of the callbacks' left, the loading
     * call is over (or the tracer was not loaded in one, or it was one
     * the filters leave out): hand over */
    if (st == LOADING && !__atomic_load_n(&cb_frames, __ATOMIC_ACQUIRE)) remove_callbacks();
    return NULL;
  }
  /* not traced (filtered out, or stopped): HIP then makes neither the API
   * callback nor the exit activity call */
  if (!rtg_hip_op_traced(op)) return NULL;
  stack *s = &thread_stack;
  if (s->depth >= DEPTH) return NULL; /* too deep: not traced */
  if (st == LOADING) __atomic_add_fetch(&cb_frames, 1, __ATOMIC_ACQ_REL);
  frame *f = &s->frames[s->depth++];
  f->depth = &s->depth;
  f->magic = FRAME_MAGIC;
  /* correlation_id and phase only: HIP fills the args it needs */
  memset(f->data, 0, RTG_HIP_DATA_ARGS_OFF);
  return f->data;
}

static void api_cb(uint32_t domain, uint32_t op, const void *data, void *arg) {
  if (domain != RTG_HIP_DOMAIN_API || !data) return;
  frame *f = (frame *)data; /* our activity callback's record */
  if (f->magic != FRAME_MAGIC) return;
  uint32_t phase;
  memcpy(&phase, f->data + RTG_HIP_DATA_PHASE_OFF, sizeof phase);
  if (phase == 0) {
    rtg_hip_begin(&f->call, op);
    if (op == rtg_hip.graph_launch_op)
      rtg_hip_graph_begin(&f->call, f->data + RTG_HIP_DATA_ARGS_OFF);
  } else {
    rtg_hip_end(&f->call, f->data + RTG_HIP_DATA_ARGS_OFF, -1);
    f->magic = 0;
    if (*f->depth > 0) --*f->depth;
    if (__atomic_load_n(&stage, __ATOMIC_ACQUIRE) == LOADING) {
      /* (a frame begun while loading ends while loading: the stage
       * moves on only once cb_frames is 0, or at the loader's end) */
      __atomic_sub_fetch(&cb_frames, 1, __ATOMIC_ACQ_REL);
      if (!*f->depth && f->call.ts == loader) remove_callbacks(); /* the loading call ended */
    }
  }
}

/* Register the callbacks of every traced op; how many took. */
static unsigned add_callbacks(void) {
  unsigned n = 0;
  for (uint32_t op = 1; op <= registered_last && op < sizeof(rtg_hip.enabled); op++) {
    if (!rtg_hip.enabled[op]) continue;
    /* activity first: the API callback alone never fires; and never the
     * activity callback alone, whose frames only the API callback pops
     * (an op whose API callback did not register is not traced) */
    if (reg_act(op, (void *)activity_cb, EXIT_MARK) == 0 && reg_api(op, (void *)api_cb, NULL) == 0)
      n++;
    else
      rtg_hip.enabled[op] = 0;
  }
  return n;
}

/* A kernel or copy began outside any traced call after the hand-over
 * (rtg_corr_missing): calls go around the GOT.  Once. */
static void calls_around_got(void) {
  if (!rtg_hip_got_bypassed(calls_around_got)) return;
  __atomic_store_n(&stage, BOTH, __ATOMIC_RELEASE);
  unsigned n = add_callbacks();
  rtg_log(0,
          "HIP calls bypass the GOT (a kernel or copy began outside any traced call, e.g. through "
          "a pointer dlsym gave before the tracer loaded): HIP's callbacks trace them from now on "
          "(%u functions); such calls before this are not in the trace (RTG_HIP_PATH=callback "
          "traces them all)",
          n);
}

/* The hand-over's end: HIP's profiler flag goes off with the last
 * activity callback.  Once; on any thread. */
static void remove_callbacks(void) {
  int from = LOADING;
  if (!__atomic_compare_exchange_n(&stage, &from, GOT_ONLY, false, __ATOMIC_ACQ_REL,
                                   __ATOMIC_ACQUIRE))
    return;
  unsigned n = 0;
  for (uint32_t op = 1; op <= registered_last && op < sizeof(rtg_hip.enabled); op++) {
    if (!rtg_hip.enabled[op]) continue;
    n += rm_act(op) == 0;
    rm_api(op);
  }
  rtg_log(1, "HIP API tracing: the loading call ended; %u callbacks removed, the GOT traces on", n);
  __atomic_store_n(&rtg_corr_missing, calls_around_got, __ATOMIC_RELEASE);
}

rtg_path_start rtg_hip_legacy_start(void *lib) {
  *(void **)&reg_api = dlsym(lib, "hipRegisterApiCallback");
  *(void **)&reg_act = dlsym(lib, "hipRegisterActivityCallback");
  *(void **)&rm_api = dlsym(lib, "hipRemoveApiCallback");
  *(void **)&rm_act = dlsym(lib, "hipRemoveActivityCallback");
  if (!reg_api || !reg_act) return RTG_PATH_ABSENT;
  const rtg_hip_release *r = rtg_hip.rel;
  if (r->data_size > DATA_SIZE) {
    rtg_log(0, "HIP %s: hip_api_data_t (%u bytes) larger than expected; HIP calls not traced",
            r->name, r->data_size);
    return RTG_PATH_REFUSED;
  }
  registered_last = r->last_op;
  unsigned n = add_callbacks();
  rtg_log(1, "HIP callbacks registered for %u functions", n);
  /* the hand-over (above), unless asked to keep the callbacks */
  if ((!rtg_cfg.hip_path || strcmp(rtg_cfg.hip_path, "callback")) && rm_api && rm_act && n) {
    loader = &rtg_tls;
    __atomic_store_n(&stage, LOADING, __ATOMIC_RELEASE);
    rtg_hip_got_install(lib);
    rtg_hip.path = "callback-5.2+got";
  }
  return RTG_PATH_TAKEN;
}

void rtg_hip_legacy_stop(void) {
  /* Unregistering at exit would race with HIP's own threads still calling
   * (its sync spins on them); instead make the callbacks inert: the
   * records they would write could no longer be flushed anyway. */
  __atomic_store_n(&rtg_corr_missing, NULL, __ATOMIC_RELEASE); /* (no coming back at exit) */
  for (uint32_t op = 1; op <= registered_last && op < sizeof(rtg_hip.enabled); op++)
    rtg_hip.enabled[op] = 0;
}
