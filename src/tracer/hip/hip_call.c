/* The per-call bookkeeping every HIP path shares: a call's start, its
 * correlation id made current for the thread (so the queue interceptor
 * stamps it on the packets the call submits), and at its end the one HIP
 * record, whichever path reported the call.  Also the state the paths
 * read: the release's op tables and which ops are traced. */
#include "core/backtrace.h"
#include "core/fmt.h"
#include "core/stamp.h"
#include "hip_internal.h"

#include <string.h>

rtg_hip_state rtg_hip;

int rtg_hip_name_traced(const char *name) {
  return rtg_filter_match(&rtg_cfg.hip_filter, &rtg_cfg.hip_filter_out, name, true);
}

void rtg_hip_begin_named(rtg_hip_call *c, const char *name, uint8_t backtrace) {
  rtg_thread_state *ts = &rtg_tls;
  c->ts = ts;
  c->name = name;
  c->op = 0;
  c->graph = 0;
  c->backtrace = backtrace;
  c->prev_corr = ts->corr;
  c->ancestor = ts->inner;
  c->corr = rtg_corr_next_on(ts);
  ts->corr = ts->inner = c->corr; /* as rtg_corr_set */
  c->start = rtg_stamp();         /* last, so the bookkeeping is not in the duration */
}

void rtg_hip_begin(rtg_hip_call *c, uint32_t op) {
  rtg_hip_begin_named(c, rtg_hip_op_name(op),
                      op < sizeof(rtg_hip.backtrace) && rtg_hip.backtrace[op]);
  c->op = op;
}

/* The HIP record's entry: the application's thread only fills it and
 * copies it, the writer thread makes the line (formatting the numbers was
 * most of the cost of a traced call).  The function name is static (our op
 * tables, HIP's hipApiName strings, the dispatch-table slot names); the
 * arguments and the kernel name are not: they follow the header, after the
 * backtrace's id when there is one: the argument fields as
 * rtg_hip_args_capture copies them, then the kernel name with its NUL.
 * The ancestor's id, when the call was made inside another traced call,
 * follows the backtrace's id.  64 bytes in the buffer for a call without
 * them: one cache line. */
typedef struct hip_entry {
  const char *func;
  uint64_t start, dur, corr;     /* start, dur: stamps */
  int64_t ret;                   /* < 0: unknown */
  uint16_t args_len, kernel_len; /* argument bytes; kernel name with the NUL, 0: absent */
  uint16_t tail;                 /* HIP_TAIL_*: the uint64_t ids that follow */
  uint16_t args_dec;             /* the arguments' decoder (hip_args.c), 0: no argument text */
} hip_entry;

enum { HIP_TAIL_STACK = 1, HIP_TAIL_ANCESTOR = 2 };

enum { HIP_ENTRY_MAX = RTG_PAYLOAD_MAX, HIP_ARGS_TEXT = 512 };

/* The text of s[0..len) is a string: ends in its NUL. */
static bool is_str(const char *s, size_t len) {
  return len && !s[len - 1];
}

static size_t format_hip(char *out, size_t cap, const void *payload, size_t len, uint32_t pid,
                         uint64_t tid) {
  rtg_count_written(RTG_CNT_HIP_CALLS);
  hip_entry e;
  if (len < sizeof e) return 0;
  memcpy(&e, payload, sizeof e);
  uint64_t stack = 0, ancestor = 0;
  size_t tail_len = 0;
  if (e.tail & HIP_TAIL_STACK) tail_len += sizeof stack;
  if (e.tail & HIP_TAIL_ANCESTOR) tail_len += sizeof ancestor;
  if (sizeof e + tail_len + (size_t)e.args_len + e.kernel_len > len) return 0;
  const char *tail = (const char *)payload + sizeof e;
  if (e.tail & HIP_TAIL_STACK) memcpy(&stack, tail, sizeof stack), tail += sizeof stack;
  if (e.tail & HIP_TAIL_ANCESTOR) memcpy(&ancestor, tail, sizeof ancestor);
  const char *args = (const char *)payload + sizeof e + tail_len, *kernel = args + e.args_len;
  if (e.kernel_len && !is_str(kernel, e.kernel_len)) return 0;
  /* the return value: its digits, "?" when unknown */
  char ret[24] = "?";
  if (e.ret >= 0) *rtg_fmt_u64(ret, ret + sizeof ret - 1, (uint64_t)e.ret) = 0;
  rtg_record rec, *r = &rec;
  rtg_record_init(r, RTG_KIND_HIP_API, pid, tid);
  r->u.HIP_API.func = e.func;
  r->u.HIP_API.ret = ret;
  rtg_stamp_span_ns(e.start, e.dur, &r->u.HIP_API.start, &r->u.HIP_API.dur);
  char text[HIP_ARGS_TEXT];
  if (e.args_dec) {
    rtg_hip_args_format_dec(text, sizeof text, e.args_dec, args, e.args_len);
    RTG_SET(r, HIP_API, args, text);
  }
  if (e.kernel_len) RTG_SET(r, HIP_API, kernel, kernel);
  RTG_SET(r, HIP_API, corr, e.corr);
  if (stack) RTG_SET(r, HIP_API, stack, stack);
  if (ancestor) RTG_SET(r, HIP_API, ancestor, ancestor);
  return rtg_entry_record(out, cap, r);
}

/* Appends s with its NUL at *n, if it fits; its length with the NUL, or 0. */
static uint16_t put_text(char *buf, size_t *n, const char *s) {
  if (!s) return 0;
  size_t l = strlen(s) + 1;
  if (*n + l > HIP_ENTRY_MAX) return 0;
  memcpy(buf + *n, s, l);
  *n += l;
  return (uint16_t)l;
}

void rtg_hip_end_dec(rtg_hip_call *c, unsigned dec, const void *args, const char *kernel,
                     int64_t ret) {
  uint64_t end = rtg_stamp();
  c->ts->corr = c->prev_corr; /* as rtg_corr_set */
  if (c->graph) c->ts->graph = 0;
  c->ts->inner = c->ancestor;
  union {
    hip_entry e;
    char bytes[HIP_ENTRY_MAX];
  } u;
  /* every byte set: no stray bytes in the trace buffers */
  u.e = (hip_entry){c->name, c->start, end - c->start, c->corr, ret, 0, 0, 0, 0};
  size_t n = sizeof u.e;
  if (c->backtrace && rtg_bt_long_enough(rtg_stamp_ns(end) - rtg_stamp_ns(c->start))) {
    uint64_t stack = rtg_bt_capture(2);
    if (stack) {
      memcpy(u.bytes + n, &stack, sizeof stack);
      n += sizeof stack;
      u.e.tail |= HIP_TAIL_STACK;
    }
  }
  if (c->ancestor) {
    memcpy(u.bytes + n, &c->ancestor, sizeof c->ancestor);
    n += sizeof c->ancestor;
    u.e.tail |= HIP_TAIL_ANCESTOR;
  }
  if (dec && args) {
    size_t l = rtg_hip_args_capture(dec, args, (unsigned char *)u.bytes + n, HIP_ENTRY_MAX - n);
    u.e.args_dec = (uint16_t)dec;
    u.e.args_len = (uint16_t)l;
    n += l;
  }
  u.e.kernel_len = put_text(u.bytes, &n, kernel);
  /* calls are counted where their records are written (format_hip), or
   * here when there is none */
  bool too_long = kernel && !u.e.kernel_len;
  if (too_long) rtg_count(RTG_CNT_LOST, 1); /* longer than a record may be */
  if (too_long || !rtg_emit_entry_on(c->ts, format_hip, u.bytes, n))
    rtg_count(RTG_CNT_HIP_CALLS, 1);
}

void rtg_hip_end(rtg_hip_call *c, const void *args, int64_t ret) {
  /* HIP does not show a tracer the return value; the runtime's per-thread
   * last error holds it when the call returns, and peeking leaves it as is.
   * (hipGetLastError itself resets it, so its own value is not knowable.) */
  if (ret < 0 && rtg_hip.peek_at_last_error) {
    c->ts->inside++; /* as rtg_enter */
    ret = rtg_hip.peek_at_last_error();
    c->ts->inside--;
  }
  unsigned dec = c->op < sizeof(rtg_hip.decoder) ? rtg_hip.decoder[c->op] : 0;
  rtg_hip_end_dec(c, rtg_cfg.hip_args ? dec : 0, args,
                  args ? rtg_hip_args_kernel(c->op, args) : NULL, ret);
}
