/* The trace file: its header, the writes of the writer, the summary
 * record, and what happens when a write fails (trace_file.h). */
#define _GNU_SOURCE /* memrchr, strerrordesc_np */
#include "trace_file.h"

#include "config.h"
#include "emit.h"
#include "fmt.h"
#include "tbuf.h"
#include "trace_path.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { LINE_MAX_BYTES = 8192 };

static int out_fd = -1;

/* ------------------------------------------------------ write failures
 *
 * A write past the file size limit raises SIGXFSZ (one into a pipe without
 * reader SIGPIPE), whose default action kills the application: the trace
 * must never do that.  With the signal blocked, write() fails with EFBIG
 * (EPIPE) instead, which is handled as a full disk.  The writer thread
 * blocks every signal for good; an application thread (the last flush at
 * exit, exec, a fatal signal, the header after fork) blocks them only
 * around the tracer's write.  Blocked, the signal the write raised stays
 * pending and would be delivered at unblocking, so it is consumed then -
 * unless it was pending before, when it is the application's own. */
static __thread bool is_writer_thread;

void rtg_file_on_writer_thread(void) {
  is_writer_thread = true; /* created with every signal blocked */
}

typedef struct sig_guard {
  sigset_t old, pending_before;
  bool active;
} sig_guard;

static void write_signals(sigset_t *s) {
  sigemptyset(s);
  sigaddset(s, SIGXFSZ);
  sigaddset(s, SIGPIPE);
}

static void guard_begin(sig_guard *g) {
  g->active = !is_writer_thread;
  if (!g->active) return;
  sigset_t s;
  write_signals(&s);
  pthread_sigmask(SIG_BLOCK, &s, &g->old);
  sigpending(&g->pending_before);
}

static void guard_end(sig_guard *g) {
  if (!g->active) return;
  sigset_t now;
  sigpending(&now);
  static const int sigs[] = {SIGXFSZ, SIGPIPE};
  for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
    if (!sigismember(&now, sigs[i]) || sigismember(&g->pending_before, sigs[i])) continue;
    sigset_t one;
    sigemptyset(&one);
    sigaddset(&one, sigs[i]);
    struct timespec zero = {0, 0};
    sigtimedwait(&one, NULL, &zero);
  }
  pthread_sigmask(SIG_SETMASK, &g->old, NULL);
}

/* The first failed write (disk full, quota, file size limit, I/O error)
 * cuts the trace off there: later output is dropped and counted in
 * write_errors rather than written after a half line, possibly leaving a
 * silent hole.  The file system accepted the bytes up to cut_end; the last
 * complete line ends at cut_line_end.  Writes are serialised by drain_mu,
 * or happen when no other thread writes (open, close, fatal signal). */
static _Atomic int cut_off;
static int cut_errno;
static off_t cut_end = -1, cut_line_end = -1;
static bool opening; /* open_output reports a failed header itself */

/* Messages without stdio or strerror's locale lookup: the fatal-signal
 * path may get here. */
static void say(const char *a, const char *b, const char *c, uint64_t n, const char *d) {
  char msg[sizeof rtg_cfg.path + 512], *p = msg, *end = msg + sizeof msg - 1;
  const char *e = strerrordesc_np(cut_errno);
  p = rtg_fmt_str(p, end, "rtg: ");
  p = rtg_fmt_str(p, end, a);
  p = rtg_fmt_str(p, end, rtg_cfg.path);
  p = rtg_fmt_str(p, end, b);
  p = rtg_fmt_str(p, end, e ? e : "unknown error");
  p = rtg_fmt_str(p, end, c);
  if (d) {
    p = rtg_fmt_u64(p, end, n);
    p = rtg_fmt_str(p, end, d);
  }
  *p++ = '\n';
  if (write(2, msg, (size_t)(p - msg)) < 0) return;
}

static void trace_cut(int fd, const char *start, size_t written, int err) {
  if (atomic_exchange(&cut_off, 1)) return;
  cut_errno = err;
  cut_end = lseek(fd, 0, SEEK_CUR);
  /* what was written of this buffer ends in a partial line; before it,
   * the file ends at a line boundary (buffers hold whole lines) */
  const char *nl = written ? memrchr(start, '\n', written) : NULL;
  size_t partial = nl ? written - (size_t)(nl + 1 - start) : written;
  cut_line_end = cut_end >= (off_t)partial ? cut_end - (off_t)partial : -1;
  if (!opening)
    say("Cannot write the trace file: path=", ": ",
        "; the trace is cut off here (its summary record counts the failed writes)", 0, NULL);
}

/* Writes p[0..n) whole; false (and counted) when it could not. */
static bool write_all(int fd, const char *p, size_t n) {
  if (fd < 0 || !n) return fd >= 0;
  if (atomic_load_explicit(&cut_off, memory_order_relaxed)) {
    rtg_count(RTG_CNT_WRITE_ERRORS, 1);
    return false;
  }
  sig_guard g;
  guard_begin(&g);
  const char *start = p;
  bool ok = true;
  while (n) {
    ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      trace_cut(fd, start, (size_t)(p - start), w < 0 ? errno : ENOSPC);
      rtg_count(RTG_CNT_WRITE_ERRORS, 1);
      ok = false;
      break;
    }
    p += w;
    n -= (size_t)w;
  }
  guard_end(&g);
  return ok;
}

static bool write_header(void) {
  char host[256] = "unknown";
  gethostname(host, sizeof host - 1);
  host[sizeof host - 1] = 0;
  char exe[1024];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  exe[n > 0 ? n : 0] = 0;
  rtg_clock_pair cp = rtg_clock_pair_now();
  rtg_record r;
  rtg_record_init(&r, RTG_KIND_HEADER, rtg_pid(), rtg_tid());
  r.u.HEADER.format = RTG_FORMAT_VERSION;
  r.u.HEADER.host = host;
  r.u.HEADER.clock = "boottime";
  RTG_SET(&r, HEADER, ppid, (uint64_t)getppid());
  RTG_SET(&r, HEADER, boot_ns, cp.boot_ns);
  RTG_SET(&r, HEADER, realtime_ns, cp.realtime_ns);
  if (rtg_rank()) RTG_SET(&r, HEADER, rank, rtg_rank());
#ifdef RTG_VERSION
  RTG_SET(&r, HEADER, version, RTG_VERSION);
#endif
  if (exe[0]) RTG_SET(&r, HEADER, exe, exe);
  RTG_SET(&r, HEADER, realtime_err, cp.err_ns);
  char buf[4096];
  size_t len = rtg_record_format(buf, sizeof buf, &r);
  return write_all(out_fd, buf, len);
}

/* Append the trace's path to the launcher's list (RTG_TRACE_LIST): one
 * write with O_APPEND, so the lines of processes that open their traces
 * at the same time stay whole.  The list is the launcher's: never made
 * here. */
static void announce(void) {
  char line[sizeof rtg_cfg.path + 8];
  size_t n = rtg_trace_path_list_line(line, sizeof line);
  if (!n) return;
  int fd = open(rtg_cfg.trace_list, O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd < 0) return;
  sig_guard g;
  guard_begin(&g);
  if (write(fd, line, n) < 0) rtg_log(1, "cannot append to RTG_TRACE_LIST=%s", rtg_cfg.trace_list);
  guard_end(&g);
  close(fd);
}

bool rtg_file_open(void) {
  out_fd = rtg_trace_path_open();
  if (out_fd < 0) return false;
  /* not even the header fits (/dev/full, a full disk): tracing would only
   * cost the application, as when the file cannot be opened */
  opening = true;
  bool ok = write_header();
  opening = false;
  if (!ok) {
    say("Cannot write the trace file: path=", ": ", "; not tracing", 0, NULL);
    close(out_fd);
    out_fd = -1;
    atomic_store(&cut_off, 0);
    atomic_store(&rtg_counters[RTG_CNT_WRITE_ERRORS], 0);
    return false;
  }
  announce();
  return true;
}

/* After the trace was cut off, where can the summary still go?  Over the
 * last lines, inside the bytes the file system accepted (so it needs no
 * new space and stays under a size limit): at the last line boundary that
 * leaves it len bytes before cut_end.  -1: nowhere (not a regular file,
 * nothing but the header). */
static off_t summary_room(size_t len) {
  static char tail[2 * LINE_MAX_BYTES]; /* one writer at a time, see cut_off */
  if (cut_end < 0 || cut_line_end < 0 || (off_t)len > cut_end) return -1;
  off_t limit = cut_end - (off_t)len;
  if (cut_line_end <= limit) return cut_line_end;
  off_t from = limit > (off_t)sizeof tail ? limit - (off_t)sizeof tail : 0;
  int fd = open(rtg_cfg.path, O_RDONLY | O_CLOEXEC); /* the trace is write-only */
  if (fd < 0) return -1;
  ssize_t n = pread(fd, tail, (size_t)(limit - from), from);
  close(fd);
  const char *nl = n > 0 ? memrchr(tail, '\n', (size_t)n) : NULL;
  return nl ? from + (nl + 1 - tail) : -1; /* the header line stays */
}

/* Writes the summary record last in the trace; returns the offset where it
 * begins, -1 when it could not be written. */
off_t rtg_file_put_summary(void) {
  int fd = out_fd;
  rtg_record r;
  rtg_record_init(&r, RTG_KIND_SUMMARY, rtg_pid(), rtg_tid());
  r.u.SUMMARY.dispatches = rtg_counter_get(RTG_CNT_DISPATCHES);
  r.u.SUMMARY.barriers = rtg_counter_get(RTG_CNT_BARRIERS);
  r.u.SUMMARY.copies = rtg_counter_get(RTG_CNT_COPIES);
  r.u.SUMMARY.hsa_calls = rtg_counter_get(RTG_CNT_HSA_CALLS);
  r.u.SUMMARY.hip_calls = rtg_counter_get(RTG_CNT_HIP_CALLS);
  rtg_tbuf_stats bs = rtg_tbuf_get_stats();
  r.u.SUMMARY.lost = rtg_counter_get(RTG_CNT_LOST) + bs.lost;
  RTG_SET(&r, SUMMARY, lost_gpu, rtg_counter_get(RTG_CNT_LOST_GPU));
  RTG_SET(&r, SUMMARY, unfinished, rtg_counter_get(RTG_CNT_UNFINISHED));
  RTG_SET(&r, SUMMARY, other_packets, rtg_counter_get(RTG_CNT_OTHER_PACKETS));
  RTG_SET(&r, SUMMARY, write_errors, rtg_counter_get(RTG_CNT_WRITE_ERRORS));
  RTG_SET(&r, SUMMARY, buffer_waits, bs.waits);
  RTG_SET(&r, SUMMARY, buffer_wait_ns, bs.wait_ns);
  uint64_t missed_until = rtg_counter_get(RTG_CNT_HIP_MISSED_UNTIL);
  if (missed_until) RTG_SET(&r, SUMMARY, hip_missed_until, missed_until);
  uint64_t wakeups = rtg_counter_get(RTG_CNT_DESTROY_WAKEUPS);
  if (wakeups) RTG_SET(&r, SUMMARY, destroy_wakeups, wakeups);
  uint64_t releases = rtg_counter_get(RTG_CNT_THROTTLE_RELEASES);
  if (releases) RTG_SET(&r, SUMMARY, throttle_releases, releases);
  uint64_t mpi = rtg_counter_get(RTG_CNT_MPI_CALLS);
  if (mpi) RTG_SET(&r, SUMMARY, mpi_calls, mpi);
  rtg_clock_pair cp = rtg_clock_pair_now();
  RTG_SET(&r, SUMMARY, boot_ns, cp.boot_ns);
  RTG_SET(&r, SUMMARY, realtime_ns, cp.realtime_ns);
  RTG_SET(&r, SUMMARY, realtime_err, cp.err_ns);
  char buf[1024];
  size_t n = rtg_record_format(buf, sizeof buf, &r);
  if (fd < 0 || !n) return -1;
  if (!atomic_load(&cut_off)) {
    off_t at = lseek(fd, 0, SEEK_CUR);
    return write_all(fd, buf, n) ? at : -1;
  }
  /* cut off: the summary replaces the last lines, which the reader would
   * otherwise take for the end of a complete trace */
  off_t at = summary_room(n);
  if (at < 0) return -1;
  sig_guard g;
  guard_begin(&g);
  bool ok = pwrite(fd, buf, n, at) == (ssize_t)n && ftruncate(fd, at + (off_t)n) == 0;
  guard_end(&g);
  if (!ok) return -1;
  lseek(fd, at + (off_t)n, SEEK_SET);
  cut_line_end = at + (off_t)n;
  return at;
}

/* The summary; when the trace was cut off and not even the summary could
 * be written, the count of failed writes goes to stderr instead. */
void rtg_file_write_summary(void) {
  if (rtg_file_put_summary() >= 0 || !atomic_load(&cut_off)) return;
  say("Cannot write the summary record to the trace file: path=", ": ", "; ",
      rtg_counter_get(RTG_CNT_WRITE_ERRORS), " writes of the trace failed");
}

void rtg_file_unput_summary(off_t mark) {
  if (mark >= 0 && ftruncate(out_fd, mark) == 0) {
    lseek(out_fd, mark, SEEK_SET);
    if (atomic_load(&cut_off)) cut_line_end = mark;
  }
}

bool rtg_file_write(const char *p, size_t n) {
  return write_all(out_fd, p, n);
}

void rtg_file_close(void) {
  if (out_fd >= 0) close(out_fd);
  out_fd = -1;
}

void rtg_file_after_fork_child(void) {
  atomic_store(&cut_off, 0); /* the child writes a file of its own */
  rtg_file_close();
}
