/* Declarations shared by the HSA side of the tracer (sink, tables, API
 * wrappers, queue interception, copies, kernel names).  The contract with
 * the HIP side is tracer.h; this file is for the parts in this directory
 * that implement it. */
#ifndef RTG_TRACER_INTERNAL_H
#define RTG_TRACER_INTERNAL_H

#include "tracer.h"

#include <stddef.h>
#include <stdint.h>

typedef struct rtg_tchain rtg_tchain;

typedef struct rtg_thread_state {
  rtg_tchain *chain; /* this thread's buffer (tbuf.c), attached at its first record */
  uint64_t tid;
  uint64_t corr;
  int depth;    /* > 0 while inside the tracer (recursion guard) */
  bool no_wait; /* the tracer's own threads, the fatal path: never wait for buffer space */
} rtg_thread_state;

extern __thread rtg_thread_state rtg_tls __attribute__((visibility("hidden")));

RTG_HIDDEN void rtg_thread_state_after_fork(void);

/* ---- sink entries.  Records are either text (RTG_ENTRY_TEXT, a formatted
 * line) or binary payloads formatted later by the writer thread, so that
 * the application's thread pays only for a memcpy. */
enum { RTG_ENTRY_TEXT = 1, RTG_ENTRY_HSA_API = 2, RTG_ENTRY_DEFERRED = 3, RTG_ENTRY_TYPES = 4 };

/* Format a binary payload as one or more text lines into out (cap bytes);
 * returns the length (0: nothing).  Runs on the writer thread, or in the
 * fatal-signal handler: no stdio, no malloc. */
typedef size_t (*rtg_entry_decoder)(char *out, size_t cap, const void *payload, size_t len,
                                    uint32_t pid, uint64_t tid);
RTG_HIDDEN void rtg_sink_set_decoder(int type, rtg_entry_decoder fn);

/* Append one entry to the calling thread's buffer (tbuf.c: waits or drops
 * as RTG_BUFFER_FULL says when the buffers are at their cap). */
RTG_HIDDEN void rtg_sink_push(int type, const void *payload, size_t len);
/* The same for an entry that is never dropped and never waits (GPU ops). */
RTG_HIDDEN void rtg_sink_push_keep(int type, const void *payload, size_t len);

/* Append an already formatted line (ends in '\n'). */
RTG_HIDDEN void rtg_emit_text(const char *line, size_t len);

/* The output file's descriptor (for the fatal-signal path). */
RTG_HIDDEN int rtg_sink_fd(void);
RTG_HIDDEN void rtg_sink_write_summary(int fd);
RTG_HIDDEN void rtg_sink_flush_from_signal(void);

/* exec: write every buffer and the summary, then keep the writer off the
 * file until exec either replaces us or fails; on failure cut the summary
 * off again and resume.  begin returns false when there is no open sink. */
RTG_HIDDEN bool rtg_sink_exec_begin(void);
RTG_HIDDEN void rtg_sink_exec_failed(void);

/* gpu_ops.c: GPU ops in flight (lock-free read, for the fatal path) */
RTG_HIDDEN uint64_t rtg_waiters_inflight(void);

/* fatal_signals.c */
RTG_HIDDEN void rtg_fatal_signals_install(void);

/* ---- small formatting helpers (fmt.c): no stdio, for any thread. */
RTG_HIDDEN char *rtg_fmt_u64(char *p, char *end, uint64_t v);
RTG_HIDDEN char *rtg_fmt_i64(char *p, char *end, int64_t v);
RTG_HIDDEN char *rtg_fmt_hex(char *p, char *end, uint64_t v);
RTG_HIDDEN char *rtg_fmt_str(char *p, char *end, const char *s);

#endif
