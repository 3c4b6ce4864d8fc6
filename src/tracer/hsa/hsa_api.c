/* HSA API tracing: one wrapper per function of hsa_api_list.h.
 *
 * A wrapper reads the clock, calls through rtg_impl (the runtime's function
 * or a tracer hook), reads the clock again and pushes a small binary entry
 * (function id, times, return value, raw argument words) to the calling
 * thread's buffer.  Arguments are turned into text later, on the writer
 * thread, by format_api().  Only functions that RTG_HSA_API_FILTER selects
 * get a wrapper in the table; the rest keep the runtime's entry and cost
 * nothing.
 *
 * Repeated calls (RTG_HSA_POLL=coalesce, the default): each call's entry
 * is held back by its thread (core/hold.h) instead of pushed; a next call
 * of the same function with the same argument words, return value and
 * enclosing call only counts itself into the held entry (hold_api), so a
 * runtime that polls a signal or a queue index, or waits on a signal with
 * a timeout, again and again makes one record with polls:N, the last
 * call's times and the sum of the durations.  Any other entry of the
 * thread publishes the held one first. */
#include "core/filter_check.h"
#include "core/fmt.h"
#include "core/hold.h"
#include "core/stamp.h"
#include "hsa_side.h"

#include <stdlib.h>
#include <string.h>

/* Every entry of the list, also those whose rtg_hsa_fns pointer hsa_side.h
 * declares by hand (RTG_API_HAND). */
#define RTG_API_HAND RTG_API
#define RTG_API_HAND_VOID RTG_API_VOID

enum {
#define RTG_API(T, name, ...) FN_##name,
#define RTG_API_VOID(T, name, ...) FN_##name,
#include "hsa/gen/hsa_api_list.h"
#undef RTG_API
#undef RTG_API_VOID
  FN_COUNT
};

/* how an argument word or return value is printed */
enum {
  K_PTR,
  K_HANDLE,
  K_OPAQUE,
  K_U32,
  K_I32,
  K_U64,
  K_I64,
  K_BOOL,
  K_STATUS,
  K_VOID,
  K_E_FIRST, /* enums printed by name (generated, one per enum type of an argument) */
  K_E_BEFORE_FIRST_ = K_E_FIRST - 1,
#define RTG_ENUM_KIND(t) K_E_##t,
#include "hsa/gen/hsa_enum_names.h"
#undef RTG_ENUM_KIND
  K_COUNT
};

enum { MAX_ARGS = 12 };

typedef struct fn_info {
  const char *name;
  const char *table; /* "core", "ext", "image", "finalizer" */
  int tbl;
  size_t table_off; /* offset of the entry in the normalized mirror */
  size_t fn_off;    /* offset of its pointer in rtg_hsa_fns */
  uint8_t since;    /* the release whose table first has it (52: 5.2), for the tests */
  uint8_t ret_kind;
  uint8_t nargs;
  uint8_t kinds[MAX_ARGS];
  const char *arg_names[MAX_ARGS];
} fn_info;

#define TBLNAME_CORE "core"
#define TBLNAME_EXT "ext"
#define TBLNAME_IMAGE "image"
#define TBLNAME_FINALIZER "finalizer"
#define TBLSTRUCT_CORE rtg_core_table
#define TBLSTRUCT_EXT rtg_amd_ext_table
#define TBLSTRUCT_IMAGE rtg_image_table
#define TBLSTRUCT_FINALIZER rtg_finalizer_table
#define RK_STATUS K_STATUS
#define RK_U64 K_U64
#define RK_U32 K_U32
#define RK_I64 K_I64
#define ARGKIND(K, a, t) K_##K,
#define ARGNAME(K, a, t) #a,
#define INFO(T, name, rk, args)                                                                    \
  [FN_##name] = {#name,                                                                            \
                 TBLNAME_##T,                                                                      \
                 RTG_TBL_##T,                                                                      \
                 offsetof(TBLSTRUCT_##T, name##_fn),                                               \
                 offsetof(rtg_hsa_fns, name),                                                      \
                 RTG_SINCE_##name,                                                                 \
                 rk,                                                                               \
                 sizeof((uint8_t[]){args(ARGKIND) 0}) - 1,                                         \
                 {args(ARGKIND)},                                                                  \
                 {args(ARGNAME)}},
static const fn_info fns[FN_COUNT] = {
#define RTG_API(T, name, ret, rk, params, call, ...) INFO(T, name, RK_##rk, RTG_ARGS_##name)
#define RTG_API_VOID(T, name, params, call, ...) INFO(T, name, K_VOID, RTG_ARGS_##name)
#include "hsa/gen/hsa_api_args.h"
#include "hsa/gen/hsa_api_list.h"
#undef RTG_API
#undef RTG_API_VOID
};

/* The entry pushed per call: start and dur in stamps (core/stamp.h), the
 * call's own correlation id (cid, not compared when calls repeat); the
 * argument words, then the enclosing call's id when the call was made
 * inside a traced call (64 bytes in the buffer for a call of one argument
 * outside); then, for repeated calls (flags & API_POLLS), a poll_tail. */
typedef struct api_entry {
  uint16_t fn;
  uint8_t nargs;
  uint8_t has_corr; /* words[nargs] is the enclosing call's id */
  uint32_t flags;
  uint64_t start, dur, cid, retval;
  uint64_t words[MAX_ARGS + 1];
} api_entry;

enum { API_POLLS = 1 }; /* a poll_tail ends the entry */

/* What the repeats of the first call add to its entry: how many calls in
 * all, the last one's start and duration, and the sum of all durations
 * (stamps). */
typedef struct poll_tail {
  uint64_t polls, last_start, last_dur, busy;
} poll_tail;

#include "hsa_api_words.h"
#define ARGWORD(K, a, t) e.words[n++] = RTG_W_##K(a);

static size_t format_api(char *out, size_t cap, const void *payload, size_t len, uint32_t pid,
                         uint64_t tid);

/* Calls are counted where their records are written (format_api), or
 * here when dropped. */
static void push_api(rtg_thread_state *ts, api_entry *e, int nwords) {
  if (!rtg_emit_entry_on(ts, format_api, e, offsetof(api_entry, words) + 8 * (size_t)nwords))
    rtg_count(RTG_CNT_HSA_CALLS, 1);
}

/* RTG_HSA_POLL=coalesce: count the call into the entry the thread holds
 * when it is the same call again (function, return value and argument
 * words with the correlation id, compared as the bytes the entries hold),
 * else hold its entry instead, which publishes the one held before.  A
 * call that submitted a GPU op (own) is never a repeat: the op names its
 * id, which a record must have.  An entry is held with room for a
 * poll_tail. */
static __attribute__((noinline)) void hold_api(rtg_thread_state *ts, api_entry *e, int nwords,
                                               bool own) {
  if (!atomic_load_explicit(&rtg_emit_on, memory_order_relaxed)) return; /* not tracing */
  const rtg_entry_format fmt = format_api;
  const size_t words = 8 * (size_t)nwords, head = offsetof(api_entry, words);
  const size_t entry = sizeof fmt + head + words; /* without a tail */
  rtg_tchain *t = ts->chain;
  uint32_t len;
  char *held = rtg_hold_entry(t, &len);
  if (held && !own && (len == entry || len == entry + sizeof(poll_tail))) {
    char *p = held + sizeof fmt; /* the held api_entry */
    rtg_entry_format held_fmt;
    memcpy(&held_fmt, held, sizeof held_fmt);
    if (held_fmt == fmt && !memcmp(p, e, offsetof(api_entry, flags)) &&
        !memcmp(p + offsetof(api_entry, retval), &e->retval, sizeof e->retval + words)) {
      poll_tail tail;
      rtg_hold_edit_begin(t);
      if (len == entry) { /* the first repeat: the tail begins */
        uint32_t flags = API_POLLS;
        uint64_t dur0;
        memcpy(p + offsetof(api_entry, flags), &flags, sizeof flags);
        memcpy(&dur0, p + offsetof(api_entry, dur), sizeof dur0);
        tail = (poll_tail){2, e->start, e->dur, dur0 + e->dur};
        rtg_hold_resize(t, (uint32_t)(entry + sizeof tail));
      } else {
        memcpy(&tail, held + entry, sizeof tail);
        tail.polls++;
        tail.last_start = e->start;
        tail.last_dur = e->dur;
        tail.busy += e->dur;
      }
      memcpy(held + entry, &tail, sizeof tail);
      rtg_hold_edit_end(t);
      return;
    }
  }
  e->flags = 0;
  if (!rtg_hold_put(t, &fmt, sizeof fmt, e, head + words, sizeof(poll_tail)))
    rtg_count(RTG_CNT_HSA_CALLS, 1); /* dropped (counted as lost) */
}

/* The entry both wrapper kinds push: times, the call's id, return value,
 * the argument words and the enclosing call's id (up). */
#define RECORD_CALL(ts, name, t0, t1, id, up, ret)                                                 \
  do {                                                                                             \
    api_entry e;                                                                                   \
    int n = 0;                                                                                     \
    e.fn = FN_##name;                                                                              \
    e.flags = 0;                                                                                   \
    e.start = t0;                                                                                  \
    e.dur = (t1)-t0;                                                                               \
    e.cid = (id);                                                                                  \
    e.retval = (ret);                                                                              \
    RTG_ARGS_##name(ARGWORD) e.nargs = (uint8_t)n;                                                 \
    e.has_corr = (up) != 0;                                                                        \
    if (e.has_corr) e.words[n++] = (up);                                                           \
    if (rtg_cfg.hsa_poll_each)                                                                     \
      push_api((ts), &e, n);                                                                       \
    else                                                                                           \
      hold_api((ts), &e, n, (ts)->op_inner == (id));                                               \
  } while (0)

/* The wrappers.  Calls the tracer makes itself are not recorded
 * (rtg_enter).  A call takes its id and is the thread's innermost call
 * while it runs (rtg_thread_state.inner).  The thread's state is read once (each
 * access to it is a call in a dlopen'ed library). */
#define RTG_API(T, name, ret, rk, params, call, ...)                                               \
  static ret w_##name params {                                                                     \
    rtg_thread_state *ts_ = &rtg_tls;                                                              \
    if (ts_->inside) return rtg_impl.name call;                                                    \
    uint64_t id_ = rtg_corr_next_on(ts_), up_ = ts_->inner;                                        \
    ts_->inner = id_;                                                                              \
    uint64_t t0_ = rtg_stamp();                                                                    \
    ret r_ = rtg_impl.name call;                                                                   \
    uint64_t t1_ = rtg_stamp();                                                                    \
    ts_->inner = up_;                                                                              \
    RECORD_CALL(ts_, name, t0_, t1_, id_, up_, (uint64_t)r_);                                      \
    return r_;                                                                                     \
  }
#define RTG_API_VOID(T, name, params, call, ...)                                                   \
  static void w_##name params {                                                                    \
    rtg_thread_state *ts_ = &rtg_tls;                                                              \
    if (ts_->inside) {                                                                             \
      rtg_impl.name call;                                                                          \
      return;                                                                                      \
    }                                                                                              \
    uint64_t id_ = rtg_corr_next_on(ts_), up_ = ts_->inner;                                        \
    ts_->inner = id_;                                                                              \
    uint64_t t0_ = rtg_stamp();                                                                    \
    rtg_impl.name call;                                                                            \
    uint64_t t1_ = rtg_stamp();                                                                    \
    ts_->inner = up_;                                                                              \
    RECORD_CALL(ts_, name, t0_, t1_, id_, up_, 0);                                                 \
  }
#include "hsa/gen/hsa_api_list.h"
#undef RTG_API
#undef RTG_API_VOID

static const rtg_hsa_fn wrappers[FN_COUNT] = {
#define RTG_API(T, name, ...) [FN_##name] = (rtg_hsa_fn)w_##name,
#define RTG_API_VOID(T, name, ...) [FN_##name] = (rtg_hsa_fn)w_##name,
#include "hsa/gen/hsa_api_list.h"
#undef RTG_API
#undef RTG_API_VOID
};

/* ------------------------------------------------------------ decoding */

/* hsa.h's calling-convention macro would eat the record member's name */
#undef HSA_API

/* grouped by kind, as generated */
static const struct enum_name {
  uint8_t kind;
  int64_t value;
  const char *name;
} enum_names[] = {
#define RTG_ENUM(t, c) {K_E_##t, (int64_t)(c), #c},
#define RTG_ENUM_V(t, v, c) {K_E_##t, (int64_t)(v), #c},
#include "hsa/gen/hsa_enum_names.h"
#undef RTG_ENUM
#undef RTG_ENUM_V
};
enum { N_ENUM_NAMES = sizeof enum_names / sizeof *enum_names };
/* per kind: its first entry in enum_names and how many (set by init) */
static uint16_t enum_first[K_COUNT], enum_count[K_COUNT];

static char *fmt_word(char *p, char *end, int kind, uint64_t v) {
  switch (kind) {
  case K_PTR:
  case K_HANDLE:
    return v ? rtg_fmt_hex(p, end, v) : rtg_fmt_str(p, end, "0");
  case K_OPAQUE:
    return rtg_fmt_str(p, end, "{...}");
  case K_I32:
    return rtg_fmt_i64(p, end, (int32_t)v);
  case K_I64:
    return rtg_fmt_i64(p, end, (int64_t)v);
  case K_BOOL:
    return rtg_fmt_str(p, end, v ? "true" : "false");
  case K_U32:
  case K_U64:
  case K_STATUS:
    return rtg_fmt_u64(p, end, v);
  default:
    if (kind < K_COUNT)
      for (int i = enum_first[kind], n = enum_count[kind]; n > 0; i++, n--)
        if ((uint64_t)enum_names[i].value == v || (uint32_t)enum_names[i].value == v)
          return rtg_fmt_str(p, end, enum_names[i].name);
    return rtg_fmt_u64(p, end, v);
  }
}

/* Each argument's ", name=" (the first one's without ", "), made once at
 * init so the writer copies it whole: it writes millions of these. */
typedef struct arg_label {
  const char *text;
  uint8_t len;
} arg_label;
static arg_label labels[FN_COUNT][MAX_ARGS];
static char *labels_mem;

static void labels_init(void) {
  size_t need = 0;
  for (int f = 0; f < FN_COUNT; f++)
    for (int i = 0; i < fns[f].nargs; i++) need += strlen(fns[f].arg_names[i]) + 3;
  char *p = labels_mem = malloc(need ? need : 1);
  if (!p) return; /* format_api then writes them piece by piece */
  for (int f = 0; f < FN_COUNT; f++)
    for (int i = 0; i < fns[f].nargs; i++) {
      char *start = p;
      if (i) *p++ = ',', *p++ = ' ';
      size_t n = strlen(fns[f].arg_names[i]);
      memcpy(p, fns[f].arg_names[i], n);
      p += n;
      *p++ = '=';
      labels[f][i] = (arg_label){start, (uint8_t)(p - start)};
    }
}

static inline uint64_t load_word(const char *words, size_t i) {
  uint64_t w;
  memcpy(&w, words + 8 * i, 8);
  return w;
}

/* A repeated call's fields: the last call's start and duration and the
 * sum of all durations, in ns.  The sum, placed as a span from the first
 * start, never exceeds the first start to the last end. */
static void set_polls(rtg_record *r, const api_entry *e, const poll_tail *t) {
  rtg_rec_HSA_API *a = &r->u.HSA_API;
  uint64_t last, last_dur, from, busy;
  rtg_stamp_span_ns(t->last_start, t->last_dur, &last, &last_dur);
  rtg_stamp_span_ns(e->start, t->busy, &from, &busy);
  uint64_t span = last + last_dur > a->start ? last + last_dur - a->start : 0;
  RTG_SET(r, HSA_API, polls, t->polls);
  RTG_SET(r, HSA_API, last, last);
  RTG_SET(r, HSA_API, last_dur, last_dur);
  RTG_SET(r, HSA_API, busy, busy < span ? busy : span);
}

/* The record of one call, on the writer thread. */
static size_t format_api(char *out, size_t cap, const void *payload, size_t len, uint32_t pid,
                         uint64_t tid) {
  api_entry e; /* its words are read in place, as many as the entry has */
  poll_tail tail = {1, 0, 0, 0};
  if (len < offsetof(api_entry, words)) return 0;
  memcpy(&e, payload, offsetof(api_entry, words));
  if ((e.flags & API_POLLS) && len >= offsetof(api_entry, words) + sizeof tail) {
    len -= sizeof tail;
    memcpy(&tail, (const char *)payload + len, sizeof tail);
  }
  rtg_count_written_n(RTG_CNT_HSA_CALLS, tail.polls);
  const char *words = (const char *)payload + offsetof(api_entry, words);
  size_t have = (len - offsetof(api_entry, words)) / 8;
#define WORD(i) ((size_t)(i) < have ? load_word(words, i) : 0)
  if (e.fn >= FN_COUNT) return 0;
  const fn_info *f = &fns[e.fn];
  char args[2048], ret[32];
  char *p = args, *end = args + sizeof args - 1;
  int nargs = e.nargs < MAX_ARGS ? e.nargs : MAX_ARGS;
  for (int i = 0; i < nargs && i < f->nargs; i++) {
    const arg_label *l = &labels[e.fn][i];
    if (l->text) { /* (args holds 12 labels and values with room to spare) */
      memcpy(p, l->text, l->len);
      p += l->len;
    } else {
      if (i) p = rtg_fmt_str(p, end, ", ");
      p = rtg_fmt_str(p, end, f->arg_names[i]);
      p = rtg_fmt_str(p, end, "=");
    }
    p = fmt_word(p, end, f->kinds[i], WORD(i));
  }
  *p = 0;
  if (f->ret_kind == K_VOID) {
    strcpy(ret, "void");
  } else {
    char *q = fmt_word(ret, ret + sizeof ret - 1, f->ret_kind == K_I64 ? K_I64 : K_U64, e.retval);
    *q = 0;
  }
  rtg_record r;
  rtg_record_init(&r, RTG_KIND_HSA_API, pid, tid);
  r.u.HSA_API.func = f->name;
  r.u.HSA_API.args = args;
  r.u.HSA_API.ret = ret;
  rtg_stamp_span_ns(e.start, e.dur, &r.u.HSA_API.start, &r.u.HSA_API.dur);
  if (e.has_corr && WORD(nargs)) RTG_SET(&r, HSA_API, corr, WORD(nargs));
#undef WORD
  if (tail.polls > 1) set_polls(&r, &e, &tail);
  if (e.cid) RTG_SET(&r, HSA_API, cid, e.cid);
  /* names from the generated table, numbers, and labels and words made
   * by fmt_word: nothing to scan for */
  RTG_CLEAN(&r, HSA_API, func);
  RTG_CLEAN(&r, HSA_API, args);
  RTG_CLEAN(&r, HSA_API, ret);
  return rtg_entry_record(out, cap, &r);
}

void rtg_hsa_api_init(void) {
  labels_init();
  for (int i = N_ENUM_NAMES - 1; i >= 0; i--) {
    enum_first[enum_names[i].kind] = (uint16_t)i;
    enum_count[enum_names[i].kind]++;
  }
}

/* Put into the runtime's tables: the tracing wrapper for every function the
 * filter selects, a tracer hook where one is needed without tracing. */
void rtg_hsa_api_install(void) {
  int traced = 0;
  static const char *present[FN_COUNT]; /* the names of this runtime's functions */
  for (int i = 0; i < FN_COUNT; i++) {
    const fn_info *f = &fns[i];
    rtg_hsa_fn real, impl;
    memcpy(&real, (const char *)&rtg_real + f->fn_off, sizeof real);
    memcpy(&impl, (const char *)&rtg_impl + f->fn_off, sizeof impl);
    /* absent: this runtime's table lacks it (an older release, or an entry
     * past its minor_id); rtg_table_set checks the layout again */
    if (!real) continue;
    present[i] = f->name;
    /* hsa_init/hsa_shut_down load and unload the tools (this library):
     * a wrapper would run while that happens, so they are never wrapped */
    if (i == FN_hsa_init || i == FN_hsa_shut_down) continue;
    bool trace =
        rtg_cfg.hsa_api &&
        rtg_filter_match_cat(&rtg_cfg.hsa_filter, &rtg_cfg.hsa_filter_out, f->name, f->table, true);
    rtg_hsa_fn fn = trace ? wrappers[i] : impl != real ? impl : NULL;
    if (fn && rtg_table_set(f->tbl, f->table_off, fn) && trace) traced++;
    if (rtg_cfg.verbose >= 2) rtg_log(2, "HSA API %s %s", trace ? "trace" : "skip", f->name);
  }
  rtg_log(1, "tracing %d HSA API functions", traced);
  if (rtg_cfg.hsa_api) {
    static const char *const in[] = {"all", "core", "ext", "image", "finalizer", NULL};
    static const char *const out[] = {"all", NULL};
    rtg_filter_check("RTG_HSA_API_FILTER", rtg_cfg.hsa_filter.spec, "HSA", present, FN_COUNT, in);
    rtg_filter_check("RTG_HSA_API_FILTER_OUT", rtg_cfg.hsa_filter_out.spec, "HSA", present,
                     FN_COUNT, out);
  }
}
