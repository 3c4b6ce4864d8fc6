/* ROCTx markers and ranges -> ROCTX records.
 *
 *   roctxMarkA(msg)            op:mark   start = stop = the call
 *   roctxRangePushA/Pop        op:push   written at the pop, with its depth
 *                                        (0 = outermost) on that thread
 *   roctxRangeStartA/Stop      op:start  written at the stop (any thread),
 *                                        with the range id
 * A range still open when its thread ends (push) or at process end (push
 * and start) is written then, stop = that time, with unclosed:1, so it
 * still shows on the timeline.
 * Messages are interned (copied once, kept until exit), so the innermost
 * pushed range of a thread can be handed to the GPU side for
 * RTG_KERNEL_RENAME (the thread state's range, core/thread_state.h) and stay
 * valid however long the dispatch record takes to be written. */
#define _GNU_SOURCE
#include "roctx.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define STACK_DEPTH 64
#define OPEN_SLOTS 4096   /* start/stop ranges open at once */
#define INTERN_SLOTS 8192 /* distinct messages */

/* A call's correlation id and the traced call it was made in (0: none). */
typedef struct call_ids {
  uint64_t corr, ancestor;
} call_ids;

static call_ids take_ids(void) {
  rtg_thread_state *t = &rtg_tls;
  return (call_ids){rtg_corr_next_on(t), t->inner};
}

typedef struct pushed {
  const char *message;
  uint64_t start;
  call_ids ids;
} pushed;

/* One thread's push/pop ranges.  Registered at its first push, so the
 * ranges still open can be written when the thread ends (key destructor)
 * or, for threads still running, at process end. */
typedef struct tstack {
  pushed stack[STACK_DEPTH];
  int depth; /* may exceed STACK_DEPTH: deeper ranges not recorded */
  int registered;
  uint64_t tid;
  struct tstack *next;
} tstack;

static __thread tstack ts;
static tstack *threads;
static pthread_mutex_t threads_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_key_t thread_end_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static volatile int finished;

typedef struct open_range {
  uint64_t id; /* 0: free */
  uint64_t start;
  const char *message;
  uint64_t tid;
  call_ids ids;
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

static void emit_as(uint64_t tid, const char *op, uint64_t start, uint64_t stop, int64_t d,
                    uint64_t id, const char *message, int unclosed, call_ids ids) {
  rtg_record r;
  rtg_record_init(&r, RTG_KIND_ROCTX, rtg_pid(), tid);
  r.u.ROCTX.op = op;
  r.u.ROCTX.start = start;
  r.u.ROCTX.stop = stop;
  if (d >= 0) RTG_SET(&r, ROCTX, depth, (uint64_t)d);
  if (id) RTG_SET(&r, ROCTX, id, id);
  if (message) RTG_SET(&r, ROCTX, message, message);
  if (unclosed) RTG_SET(&r, ROCTX, unclosed, 1);
  if (ids.corr) RTG_SET(&r, ROCTX, corr, ids.corr);
  if (ids.ancestor) RTG_SET(&r, ROCTX, ancestor, ids.ancestor);
  rtg_emit(&r);
}

static void emit(const char *op, uint64_t start, uint64_t stop, int64_t d, uint64_t id,
                 const char *message, call_ids ids) {
  emit_as(rtg_tid(), op, start, stop, d, id, message, 0, ids);
}

/* Write the pushed ranges of t still open, innermost first, as closed at
 * `now`; they are gone afterwards. */
static void flush_unclosed(tstack *t, uint64_t now) {
  int d = t->depth < STACK_DEPTH ? t->depth : STACK_DEPTH;
  t->depth = 0;
  while (d-- > 0)
    emit_as(t->tid, "push", t->stack[d].start, now, d, 0, t->stack[d].message, 1, t->stack[d].ids);
}

/* A thread with pushed ranges ends. */
static void thread_end(void *arg) {
  tstack *t = arg;
  pthread_mutex_lock(&threads_lock);
  if (!finished) flush_unclosed(t, rtg_now());
  for (tstack **p = &threads; *p; p = &(*p)->next)
    if (*p == t) {
      *p = t->next;
      break;
    }
  pthread_mutex_unlock(&threads_lock);
}

static void make_key(void) {
  pthread_key_create(&thread_end_key, thread_end);
}

static void register_thread(void) {
  ts.registered = 1;
  ts.tid = rtg_tid();
  pthread_once(&key_once, make_key);
  pthread_setspecific(thread_end_key, &ts);
  pthread_mutex_lock(&threads_lock);
  ts.next = threads;
  threads = &ts;
  pthread_mutex_unlock(&threads_lock);
}

void rtg_roctx_mark(const char *message) {
  uint64_t t = rtg_now();
  emit("mark", t, t, -1, 0, message ? message : "", take_ids());
}

/* The innermost recorded range of this thread becomes its current one. */
static void set_current_range(void) {
  int d = ts.depth <= STACK_DEPTH ? ts.depth : STACK_DEPTH;
  rtg_range_set(d > 0 ? ts.stack[d - 1].message : NULL);
}

void rtg_roctx_push(const char *message) {
  uint64_t t = rtg_now();
  if (!ts.registered) register_thread();
  if (ts.depth < STACK_DEPTH) {
    ts.stack[ts.depth].message = intern(message);
    ts.stack[ts.depth].start = t;
    ts.stack[ts.depth].ids = take_ids();
  }
  ts.depth++;
  set_current_range();
}

void rtg_roctx_pop(void) {
  uint64_t t = rtg_now();
  if (ts.depth <= 0) return; /* a pop without push: roctx reports an error too */
  ts.depth--;
  set_current_range();
  if (ts.depth < STACK_DEPTH) {
    const pushed *p = &ts.stack[ts.depth];
    emit("push", p->start, t, ts.depth, 0, p->message, p->ids);
  }
}

void rtg_roctx_start(const char *message, uint64_t id) {
  uint64_t t = rtg_now();
  const char *m = intern(message);
  call_ids ids = take_ids();
  pthread_mutex_lock(&open_lock);
  unsigned i;
  for (i = 0; i < OPEN_SLOTS; i++) {
    open_range *o = &open_ranges[(id + i) & (OPEN_SLOTS - 1)];
    if (!o->id) {
      o->id = id;
      o->start = t;
      o->message = m;
      o->tid = rtg_tid();
      o->ids = ids;
      break;
    }
  }
  if (i == OPEN_SLOTS) lost_ranges++;
  pthread_mutex_unlock(&open_lock);
}

void rtg_roctx_stop(uint64_t id) {
  uint64_t t = rtg_now();
  open_range found = {0, 0, NULL, 0, {0, 0}};
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
  if (found.id) emit("start", found.start, t, -1, id, found.message, found.ids);
}

void rtg_roctx_report(uint32_t op, const void *data) {
  const char *message = NULL;
  uint64_t id = 0;
  if (data) {
    memcpy(&message, data, sizeof message);
    memcpy(&id, (const char *)data + sizeof message, sizeof id);
  }
  switch (op) {
  case RTG_ROCTX_MARK:
    rtg_roctx_mark(message);
    break;
  case RTG_ROCTX_PUSH:
    rtg_roctx_push(message);
    break;
  case RTG_ROCTX_POP:
    rtg_roctx_pop();
    break;
  case RTG_ROCTX_START:
    rtg_roctx_start(message, id);
    break;
  case RTG_ROCTX_STOP:
    rtg_roctx_stop(id);
    break;
  default:
    break;
  }
}

void rtg_roctx_write_open_ranges(void) {
  uint64_t now = rtg_now();
  /* Threads still running may push or pop meanwhile: their reports are
   * off now, and what is read here is at worst one range early or late. */
  pthread_mutex_lock(&threads_lock);
  finished = 1;
  unsigned pushed_open = 0;
  for (tstack *t = threads; t; t = t->next) {
    pushed_open += (unsigned)(t->depth < STACK_DEPTH ? t->depth : STACK_DEPTH);
    flush_unclosed(t, now);
  }
  pthread_mutex_unlock(&threads_lock);
  unsigned open = 0;
  pthread_mutex_lock(&open_lock);
  for (unsigned i = 0; i < OPEN_SLOTS; i++) {
    open_range *o = &open_ranges[i];
    if (!o->id) continue;
    emit_as(o->tid, "start", o->start, now, -1, o->id, o->message, 1, o->ids);
    o->id = 0;
    open++;
  }
  pthread_mutex_unlock(&open_lock);
  if (open || pushed_open || lost_ranges)
    rtg_log(1,
            "roctx: %u start/stop and %u push ranges still open at exit (written as unclosed), "
            "%u not recorded",
            open, pushed_open, lost_ranges);
}
