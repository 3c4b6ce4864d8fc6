/* How every part of the tracer records something: an entry is a format
 * function and a payload, copied into the calling thread's buffer; the
 * writer thread (or the fatal-signal path) later calls the function to turn
 * the payload into the trace's text.  The application's thread only copies
 * bytes: no formatting, lock or allocation on its path (emit.c, tbuf.h).
 * Also the counters of the summary record. */
#ifndef RTG_EMIT_H
#define RTG_EMIT_H

#include "rtg/record.h"
#include "tbuf.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ------------------------------------------------------------ counters */

/* Counters written into the final summary record. */
typedef enum rtg_counter {
  RTG_CNT_DISPATCHES,
  RTG_CNT_BARRIERS,
  RTG_CNT_COPIES,
  RTG_CNT_HSA_CALLS,
  RTG_CNT_HIP_CALLS,
  RTG_CNT_LOST,          /* records that could not be made (too long for a line) */
  RTG_CNT_LOST_GPU,      /* GPU ops whose times could not be read */
  RTG_CNT_UNFINISHED,    /* GPU ops still in flight at exit */
  RTG_CNT_OTHER_PACKETS, /* AQL packets passed through untouched */
  RTG_CNT_WRITE_ERRORS,
  /* not a count: when (CLOCK_BOOTTIME ns) HIP calls were found to go
   * around the GOT (hip_cb_legacy.c); some before it are not in the trace */
  RTG_CNT_HIP_MISSED_UNTIL,
  RTG_CNT_DESTROY_WAKEUPS, /* queue destroys woken by destroy_rescue.c */
  RTG_CNT_MPI_CALLS,
  RTG_CNT_THROTTLE_RELEASES, /* submitters let on past a waiter whose oldest op never landed */
  RTG_CNT_COUNT
} rtg_counter;

RTG_HIDDEN extern _Alignas(64) _Atomic uint64_t rtg_counters[RTG_CNT_COUNT];
RTG_HIDDEN extern _Alignas(64) _Atomic uint64_t rtg_written_counts[RTG_CNT_COUNT];

static inline void rtg_count(rtg_counter c, uint64_t n) {
  atomic_fetch_add_explicit(&rtg_counters[c], n, memory_order_relaxed);
}
/* For a format function: count where the record is written, on the
 * writer's thread (or the fatal path, which holds the writer's lock), so
 * the application's thread does no locked add per call.  Entries that
 * never reach the writer (dropped) are counted with rtg_count. */
static inline void rtg_count_written_n(rtg_counter c, uint64_t n) {
  uint64_t v = atomic_load_explicit(&rtg_written_counts[c], memory_order_relaxed);
  atomic_store_explicit(&rtg_written_counts[c], v + n, memory_order_relaxed);
}
static inline void rtg_count_written(rtg_counter c) {
  rtg_count_written_n(c, 1);
}
static inline uint64_t rtg_counter_get(rtg_counter c) {
  return atomic_load_explicit(&rtg_counters[c], memory_order_relaxed) +
         atomic_load_explicit(&rtg_written_counts[c], memory_order_relaxed);
}

/* ------------------------------------------------------------- entries */

/* Turns a payload into one or more text lines at out (cap bytes); returns
 * the length (0: nothing).  pid and tid are those of the thread that made
 * the entry.  Runs on the writer thread or in the fatal-signal handler: no
 * stdio, malloc or locks. */
typedef size_t (*rtg_entry_format)(char *out, size_t cap, const void *payload, size_t len,
                                   uint32_t pid, uint64_t tid);

/* The most payload bytes an entry can carry (its format function is the
 * rest of RTG_ENTRY_MAX). */
#define RTG_PAYLOAD_MAX (RTG_ENTRY_MAX - sizeof(rtg_entry_format))

/* Set while the sink takes entries (sink.c): from its open to its close. */
RTG_HIDDEN extern _Alignas(64) _Atomic int rtg_emit_on;

/* Record payload[0..len), to be made into text by fmt.  When the buffers
 * are at their cap the entry waits or is dropped as RTG_BUFFER_FULL says;
 * a dropped one is counted as lost, and false says so.  ts is the calling
 * thread's state (&rtg_tls), for a caller that holds it already. */
static inline bool rtg_emit_entry_on(rtg_thread_state *ts, rtg_entry_format fmt,
                                     const void *payload, size_t len) {
  if (!atomic_load_explicit(&rtg_emit_on, memory_order_relaxed)) return true; /* not tracing */
  return rtg_tbuf_push_on(ts->chain, &fmt, sizeof fmt, payload, len, RTG_PUSH_NORMAL);
}
static inline bool rtg_emit_entry(rtg_entry_format fmt, const void *payload, size_t len) {
  return rtg_emit_entry_on(&rtg_tls, fmt, payload, len);
}

/* The same for an entry that is never dropped and never waits for buffer
 * space (GPU ops: made where the application's signal is completed). */
static inline void rtg_emit_entry_keep(rtg_entry_format fmt, const void *payload, size_t len) {
  if (!atomic_load_explicit(&rtg_emit_on, memory_order_relaxed)) return;
  rtg_tbuf_push(&fmt, sizeof fmt, payload, len, RTG_PUSH_KEEP);
}

/* Record r, made by hand: it is copied with the strings it points to (they
 * need not outlive the call), and formatted by the writer with r's own pid
 * and tid.  For records that are not made on a hot path. */
RTG_HIDDEN void rtg_emit(const rtg_record *r);

/* For a format function: r as its line at out, or 0 (counted as lost) when
 * the line would be longer than cap. */
RTG_HIDDEN size_t rtg_entry_record(char *out, size_t cap, const rtg_record *r);

#endif
