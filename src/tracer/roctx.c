/* ROCTx markers and ranges -> ROCTX records.
 *
 *   roctxMarkA(msg)            op:mark   start = stop = the call
 *   roctxRangePushA/Pop        op:push   written at the pop, with its depth
 *                                        (0 = outermost) on that thread
 *   roctxRangeStartA/Stop      op:start  written at the stop (any thread),
 *                                        with the range id
 * Messages are interned (copied once, kept until exit), so the innermost
 * pushed range of a thread can be handed to the HSA side for
 * RTG_KERNEL_RENAME (rtg_roctx_current_range) and stay valid however long the
 * dispatch record takes to be written. */
#define _GNU_SOURCE
#include "roctx.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define STACK_DEPTH 64
#define OPEN_SLOTS 4096   /* start/stop ranges open at once */
#define INTERN_SLOTS 8192 /* distinct messages */

typedef struct pushed {
  const char *message;
  uint64_t start;
} pushed;

static __thread pushed stack[STACK_DEPTH];
static __thread int depth;   /* may exceed STACK_DEPTH: deeper ranges not recorded */

typedef struct open_range {
  uint64_t id; /* 0: free */
  uint64_t start;
  const char *message;
} open_range;

static open_range open_ranges[OPEN_SLOTS];
static pthread_mutex_t open_lock = PTHREAD_MUTEX_INITIALIZER;

static const char *interned[INTERN_SLOTS];
static pthread_mutex_t intern_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned lost_ranges;

static uint64_t hash_str(const char *s) {
  uint64_t h = 1469598103934665603ull;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

/* A copy of s that lives until exit; the same pointer for the same text. */
static const char *intern(const char *s) {
  if (!s) s = "";
  uint64_t h = hash_str(s);
  const char *r = NULL;
  pthread_mutex_lock(&intern_lock);
  for (unsigned i = 0; i < INTERN_SLOTS; i++) {
    unsigned k = (unsigned)(h + i) & (INTERN_SLOTS - 1);
    if (!interned[k]) {
      interned[k] = r = strdup(s);
      break;
    }
    if (!strcmp(interned[k], s)) {
      r = interned[k];
      break;
    }
  }
  pthread_mutex_unlock(&intern_lock);
  return r ? r : "(too many distinct roctx messages)";
}

static void emit(const char *op, uint64_t start, uint64_t stop, int64_t d, uint64_t id,
                 const char *message) {
  rtg_record r;
  rtg_record_init(&r, RTG_KIND_ROCTX, rtg_pid(), rtg_tid());
  r.u.ROCTX.op = op;
  r.u.ROCTX.start = start;
  r.u.ROCTX.stop = stop;
  if (d >= 0) RTG_SET(&r, ROCTX, depth, (uint64_t)d);
  if (id) RTG_SET(&r, ROCTX, id, id);
  if (message) RTG_SET(&r, ROCTX, message, message);
  rtg_emit(&r);
}

void rtg_roctx_mark(const char *message) {
  uint64_t t = rtg_now();
  emit("mark", t, t, -1, 0, message ? message : "");
}

void rtg_roctx_push(const char *message) {
  uint64_t t = rtg_now();
  if (depth < STACK_DEPTH) {
    stack[depth].message = intern(message);
    stack[depth].start = t;
  }
  depth++;
}

void rtg_roctx_pop(void) {
  uint64_t t = rtg_now();
  if (depth <= 0) return; /* a pop without push: roctx reports an error too */
  depth--;
  if (depth < STACK_DEPTH) emit("push", stack[depth].start, t, depth, 0, stack[depth].message);
}

void rtg_roctx_start(const char *message, uint64_t id) {
  uint64_t t = rtg_now();
  const char *m = intern(message);
  pthread_mutex_lock(&open_lock);
  unsigned i;
  for (i = 0; i < OPEN_SLOTS; i++) {
    open_range *o = &open_ranges[(id + i) & (OPEN_SLOTS - 1)];
    if (!o->id) {
      o->id = id;
      o->start = t;
      o->message = m;
      break;
    }
  }
  if (i == OPEN_SLOTS) lost_ranges++;
  pthread_mutex_unlock(&open_lock);
}

void rtg_roctx_stop(uint64_t id) {
  uint64_t t = rtg_now();
  open_range found = {0, 0, NULL};
  pthread_mutex_lock(&open_lock);
  for (unsigned i = 0; i < OPEN_SLOTS; i++) {
    open_range *o = &open_ranges[(id + i) & (OPEN_SLOTS - 1)];
    if (o->id == id) {
      found = *o;
      o->id = 0;
      /* keep probe chains intact: move later entries of the chain back */
      unsigned hole = (unsigned)((id + i) & (OPEN_SLOTS - 1));
      for (unsigned j = 1; j < OPEN_SLOTS; j++) {
        unsigned k = (hole + j) & (OPEN_SLOTS - 1);
        if (!open_ranges[k].id) break;
        unsigned home = (unsigned)(open_ranges[k].id & (OPEN_SLOTS - 1));
        /* can entry k live in the hole? (its home is not in (hole, k]) */
        if (((k - home) & (OPEN_SLOTS - 1)) >= ((k - hole) & (OPEN_SLOTS - 1))) {
          open_ranges[hole] = open_ranges[k];
          open_ranges[k].id = 0;
          hole = k;
          j = 0;
        }
      }
      break;
    }
    if (!o->id) break;
  }
  pthread_mutex_unlock(&open_lock);
  if (found.id) emit("start", found.start, t, -1, id, found.message);
}

const char *rtg_roctx_current_range(void) {
  if (depth <= 0) return NULL;
  return depth <= STACK_DEPTH ? stack[depth - 1].message : stack[STACK_DEPTH - 1].message;
}

void rtg_roctx_report(uint32_t op, const void *data) {
  const char *message = NULL;
  uint64_t id = 0;
  if (data) {
    memcpy(&message, data, sizeof message);
    memcpy(&id, (const char *)data + sizeof message, sizeof id);
  }
  switch (op) {
  case RTG_ROCTX_MARK: rtg_roctx_mark(message); break;
  case RTG_ROCTX_PUSH: rtg_roctx_push(message); break;
  case RTG_ROCTX_POP: rtg_roctx_pop(); break;
  case RTG_ROCTX_START: rtg_roctx_start(message, id); break;
  case RTG_ROCTX_STOP: rtg_roctx_stop(id); break;
  default: break;
  }
}

void rtg_roctx_fini(void) {
  rtg_roctx_stop_reports();
  unsigned open = 0;
  for (unsigned i = 0; i < OPEN_SLOTS; i++) open += open_ranges[i].id != 0;
  if (open || lost_ranges)
    rtg_log(1, "roctx: %u start/stop ranges never stopped, %u not recorded", open, lost_ranges);
}
