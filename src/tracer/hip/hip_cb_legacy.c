/* HIP API tracing on ROCm <= 5.3.0: hipRegisterApiCallback and
 * hipRegisterActivityCallback (facts: ROCm/hipamd rocm-5.2.3 src/hip_prof_api.h).
 *
 * Per traced call HIP does, on the calling thread:
 *   entry: data = act(op, NULL, NULL, NULL)    -- the tool supplies the record;
 *          when it returns NULL the call is not traced at all
 *          fill data->args; api(3, op, data, arg); data->phase = EXIT
 *   exit:  api(3, op, data, arg); act(op, NULL, NULL, a_arg)
 * HIP never sets phase to ENTER itself, and the activity callback is the only
 * way to make the API callback fire (DESIGN §4.3).  We register the activity
 * callback with a non-NULL a_arg so its two calls can be told apart, and keep
 * a small per-thread stack of records so nested HIP calls (HIP calling its
 * own public API) each get their own.  The record HIP hands the API callback
 * is the start of our frame, which knows its thread's stack: only the entry
 * reads thread-local storage (each access a call, in a dlopen'ed library). */
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

#define EXIT_MARK ((void *)1)

static void *activity_cb(uint32_t op, void *record, const void *data, void *arg) {
  if (arg == EXIT_MARK) return NULL; /* exit: the API callback's exit popped the frame */
  if (rtg_inside() || !rtg_hip_op_traced(op)) {
    /* our own calls into HIP, or stopped: not traced (HIP then makes
     * neither API callback nor the exit activity call) */
    return NULL;
  }
  stack *s = &thread_stack;
  if (s->depth >= DEPTH) return NULL; /* too deep: not traced */
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
  } else {
    rtg_hip_end(&f->call, f->data + RTG_HIP_DATA_ARGS_OFF, -1);
    f->magic = 0;
    if (*f->depth > 0) --*f->depth;
  }
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
  unsigned n = 0;
  for (uint32_t op = 1; op <= r->last_op; op++) {
    if (!rtg_hip_op_traced(op)) continue;
    /* activity first: the API callback alone never fires; and never the
     * activity callback alone, whose frames only the API callback pops
     * (an op whose API callback did not register is not traced) */
    if (reg_act(op, (void *)activity_cb, EXIT_MARK) == 0 && reg_api(op, (void *)api_cb, NULL) == 0)
      n++;
    else
      rtg_hip.enabled[op] = 0;
  }
  registered_last = r->last_op;
  rtg_log(1, "HIP callbacks registered for %u functions", n);
  return RTG_PATH_TAKEN;
}

void rtg_hip_legacy_stop(void) {
  /* Unregistering at exit would race with HIP's own threads still calling
   * (its sync spins on them); instead make the callbacks inert: the
   * records they would write could no longer be flushed anyway. */
  for (uint32_t op = 1; op <= registered_last && op < sizeof(rtg_hip.enabled); op++)
    rtg_hip.enabled[op] = 0;
  (void)rm_api;
  (void)rm_act;
}
