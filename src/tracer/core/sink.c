/* The record sink: the writer thread that turns the per-thread buffers
 * (tbuf.c) into the trace file, and the file itself (header, summary,
 * write failures, fork and exec).
 *
 * The writer wakes every RTG_FLUSH_MS (50), when a thread fills a chunk or
 * when a producer waits for buffer space; it formats binary entries and
 * writes whole 64 KB batches.  Fork: the child empties the parent's buffers
 * (the parent writes them), opens its own rtg_trace.txt.<childpid> and
 * starts its own writer. */
#define _GNU_SOURCE /* memrchr, strerrordesc_np */
#include "process/got_hook.h"
#include "tbuf.h"
#include "tracer.h"
#include "tracer_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

enum { FLUSH_MS = 50, LINE_MAX_BYTES = 8192 };

static _Alignas(64) _Atomic uint64_t counters[RTG_CNT_COUNT];
static size_t decode_deferred(char *out, size_t cap, const void *payload, size_t len, uint32_t pid,
                              uint64_t tid);
static rtg_entry_decoder decoders[RTG_ENTRY_TYPES] = {[RTG_ENTRY_DEFERRED] = decode_deferred};
static int out_fd = -1;
static pthread_mutex_t drain_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_t writer;
static bool writer_running;
static _Atomic int writer_stop;
/* Read by every producer on every record: each on a cache line of its own,
 * never beside what the writer changes per record (writer_buf's count
 * there cost every traced call a cache miss, ~100 ns on a 16-core host). */
static _Alignas(64) _Atomic uint32_t kick; /* futex word: 1 = drain now */
static _Alignas(64) _Atomic int sink_open;

void rtg_count(rtg_counter c, uint64_t n) {
  atomic_fetch_add_explicit(&counters[c], n, memory_order_relaxed);
}
uint64_t rtg_counter_get(int c) {
  return atomic_load_explicit(&counters[c], memory_order_relaxed);
}
void rtg_sink_set_decoder(int type, rtg_entry_decoder fn) {
  decoders[type] = fn;
}
int rtg_sink_fd(void) {
  return out_fd;
}

static void wake_writer(void) {
  if (atomic_exchange_explicit(&kick, 1, memory_order_release) == 0)
    syscall(SYS_futex, &kick, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

void rtg_sink_push(int type, const void *payload, size_t len) {
  if (!atomic_load_explicit(&sink_open, memory_order_relaxed)) return;
  rtg_tbuf_push(type, payload, len, NULL, 0, RTG_PUSH_NORMAL);
}

void rtg_sink_push_keep(int type, const void *payload, size_t len) {
  if (!atomic_load_explicit(&sink_open, memory_order_relaxed)) return;
  rtg_tbuf_push(type, payload, len, NULL, 0, RTG_PUSH_KEEP);
}
/* A deferred record's entry: the fill function, then its payload. */
void rtg_emit_deferred(rtg_record_fill fill, const void *payload, size_t len) {
  if (!atomic_load_explicit(&sink_open, memory_order_relaxed)) return;
  rtg_tbuf_push(RTG_ENTRY_DEFERRED, &fill, sizeof fill, payload, len, RTG_PUSH_NORMAL);
}

void rtg_emit_deferred_keep(rtg_record_fill fill, const void *payload, size_t len) {
  if (!atomic_load_explicit(&sink_open, memory_order_relaxed)) return;
  rtg_tbuf_push(RTG_ENTRY_DEFERRED, &fill, sizeof fill, payload, len, RTG_PUSH_KEEP);
}

static size_t decode_deferred(char *out, size_t cap, const void *payload, size_t len, uint32_t pid,
                              uint64_t tid) {
  rtg_record_fill fill;
  if (len < sizeof fill) return 0;
  memcpy(&fill, payload, sizeof fill);
  rtg_record r;
  if (!fill(&r, (const char *)payload + sizeof fill, len - sizeof fill, pid, tid)) return 0;
  size_t n = rtg_record_format(out, cap, &r);
  if (!n) rtg_count(RTG_CNT_LOST, 1); /* too long for a line, as rtg_emit counts it */
  return n;
}

void rtg_emit_text(const char *line, size_t len) {
  rtg_sink_push(RTG_ENTRY_TEXT, line, len);
}

void rtg_emit(const rtg_record *rec) {
  char buf[LINE_MAX_BYTES];
  size_t n = rtg_record_format(buf, sizeof buf, rec);
  if (!n) {
    rtg_count(RTG_CNT_LOST, 1);
    return;
  }
  rtg_emit_text(buf, n);
}

/* ------------------------------------------------------------- draining */

/* Aligned and a whole number of cache lines: the writer changes n for
 * every record, so nothing else may share its line. */
typedef struct outbuf {
  _Alignas(64) size_t n;
  char data[1 << 18];
} outbuf;

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

static void out_flush(outbuf *o) {
  write_all(out_fd, o->data, o->n);
  o->n = 0;
}
static char *out_reserve(outbuf *o, size_t n) {
  if (o->n + n > sizeof o->data) out_flush(o);
  return o->data + o->n;
}

/* One entry of a thread's buffer into the output batch. */
static void put_entry(void *ctx, uint64_t tid, int type, const char *payload, size_t len) {
  outbuf *o = ctx;
  if (type == RTG_ENTRY_TEXT) {
    memcpy(out_reserve(o, len), payload, len);
    o->n += len;
  } else if (type < RTG_ENTRY_TYPES && decoders[type]) {
    char *dst = out_reserve(o, LINE_MAX_BYTES);
    o->n += decoders[type](dst, LINE_MAX_BYTES, payload, len, rtg_pid(), tid);
  }
}

static uint64_t drain_all_locked(outbuf *o) {
  uint64_t n = rtg_tbuf_drain(put_entry, o);
  out_flush(o);
  return n;
}

static outbuf writer_buf;

void rtg_sink_flush_all(void) {
  pthread_mutex_lock(&drain_mu);
  drain_all_locked(&writer_buf);
  pthread_mutex_unlock(&drain_mu);
}

/* Fatal-signal path: the writer may hold the lock forever (it crashed
 * itself, or the process is dying around it), so try for a while, then
 * drain anyway with a buffer of our own.  The while is generous: on a
 * loaded machine the writer can sit preempted in the middle of a drain for
 * hundreds of milliseconds, and draining beside it risks the records it is
 * writing; a dying process can spare two seconds. */
void rtg_sink_flush_from_signal(void) {
  static outbuf sig_buf;
  for (int i = 0; i < 2000 && pthread_mutex_trylock(&drain_mu) != 0; i++) {
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
  }
  drain_all_locked(&sig_buf);
}

/* What the writer thread did, for RTG_VERBOSE and the writer benchmark:
 * entries written and its own CPU time. */
static uint64_t writer_entries, writer_cpu_ns;

static uint64_t thread_cpu_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void *writer_main(void *arg) {
  (void)arg;
  rtg_tls.depth = 1;       /* nothing the writer does is traced */
  rtg_tls.no_wait = true;  /* it is what producers wait for */
  is_writer_thread = true; /* created with every signal blocked */
  uint64_t rescanned = 0;
  while (!atomic_load(&writer_stop)) {
    struct timespec ts = {0, FLUSH_MS * 1000000L};
    if (!atomic_exchange_explicit(&kick, 0, memory_order_acquire)) {
      syscall(SYS_futex, &kick, FUTEX_WAIT_PRIVATE, 0, &ts, NULL, 0);
      atomic_store_explicit(&kick, 0, memory_order_relaxed);
    }
    uint64_t cpu0 = thread_cpu_ns();
    pthread_mutex_lock(&drain_mu);
    writer_entries += drain_all_locked(&writer_buf);
    pthread_mutex_unlock(&drain_mu);
    writer_cpu_ns += thread_cpu_ns() - cpu0;
    uint64_t now = rtg_now();
    if (now - rescanned >= FLUSH_MS * 1000000ull) { /* not per chunk when busy */
      rtg_got_rescan(); /* exec/_exit hooks into objects dlopen'ed since */
      rescanned = now;
    }
  }
  return NULL;
}

static void start_writer(void) {
  atomic_store(&writer_stop, 0);
  sigset_t all, old;
  sigfillset(&all); /* the application's signals are not for this thread */
  pthread_sigmask(SIG_SETMASK, &all, &old);
  writer_running = pthread_create(&writer, NULL, writer_main, NULL) == 0;
  rtg_tbuf_set_writer_alive(writer_running);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
}

static void stop_writer(void) {
  if (!writer_running) return;
  rtg_tbuf_set_writer_alive(false); /* from now on, nobody waits for it */
  atomic_store(&writer_stop, 1);
  wake_writer();
  pthread_join(writer, NULL);
  writer_running = false;
}

/* ------------------------------------------------------ open and close */

static bool write_header(void) {
  char host[256] = "unknown";
  gethostname(host, sizeof host - 1);
  host[sizeof host - 1] = 0;
  char exe[1024];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  exe[n > 0 ? n : 0] = 0;
  struct timespec rt;
  clock_gettime(CLOCK_REALTIME, &rt);
  rtg_record r;
  rtg_record_init(&r, RTG_KIND_HEADER, rtg_pid(), rtg_tid());
  r.u.HEADER.format = RTG_FORMAT_VERSION;
  r.u.HEADER.host = host;
  r.u.HEADER.clock = "boottime";
  RTG_SET(&r, HEADER, ppid, (uint64_t)getppid());
  RTG_SET(&r, HEADER, boot_ns, rtg_now());
  RTG_SET(&r, HEADER, realtime_ns, (uint64_t)rt.tv_sec * 1000000000ull + (uint64_t)rt.tv_nsec);
  if (rtg_rank()) RTG_SET(&r, HEADER, rank, rtg_rank());
#ifdef RTG_VERSION
  RTG_SET(&r, HEADER, version, RTG_VERSION);
#endif
  if (exe[0]) RTG_SET(&r, HEADER, exe, exe);
  char buf[4096];
  size_t len = rtg_record_format(buf, sizeof buf, &r);
  return write_all(out_fd, buf, len);
}

/* When this process started, CLOCK_BOOTTIME ns (/proc/self/stat field 22,
 * in clock ticks; exec keeps it). */
static uint64_t process_start_ns(void) {
  char buf[1024];
  int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return UINT64_MAX;
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return UINT64_MAX;
  buf[n] = 0;
  char *p = strrchr(buf, ')'); /* the command name may hold spaces */
  for (int field = 2; p && field < 22; field++) p = strchr(p + 1, ' ');
  if (!p) return UINT64_MAX;
  long hz = sysconf(_SC_CLK_TCK);
  return strtoull(p + 1, NULL, 10) * (1000000000ull / (uint64_t)(hz > 0 ? hz : 100));
}

/* Was path written by an earlier image of this process (before an exec)?
 * Its header then names our pid and a boot time after our start; a file
 * of an earlier process that had our pid started before us. */
static bool earlier_image(const char *path) {
  char buf[4096];
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return false;
  buf[n] = 0;
  char *nl = strchr(buf, '\n');
  if (nl) *nl = 0;
  const char *b = strstr(buf, " boot_ns:");
  unsigned long pid = 0;
  if (sscanf(buf, "RTG: pid:%lu ", &pid) != 1 || pid != rtg_pid() || !b) return false;
  return strtoull(b + 9, NULL, 10) >= process_start_ns();
}

static bool open_output(void) {
  rtg_config_path(rtg_cfg.path, sizeof rtg_cfg.path, rtg_pid());
  /* exec keeps the pid: never overwrite what the image before wrote; the
   * k-th exec'ed image writes <base>.exec<k>.<pid> (the pid stays last) */
  char base[sizeof rtg_cfg.path - 32];
  memcpy(base, rtg_cfg.path, sizeof base); /* the path ends well before */
  base[sizeof base - 1] = 0;
  char *dot = strrchr(base, '.');
  if (dot) *dot = 0; /* the ".<pid>" rtg_config_path appended */
  for (int k = 1; k < 10000 && earlier_image(rtg_cfg.path); k++)
    snprintf(rtg_cfg.path, sizeof rtg_cfg.path, "%s.exec%d.%u", base, k, rtg_pid());
  out_fd = open(rtg_cfg.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (out_fd < 0) {
    rtg_log(0, "Cannot open the trace file: path=%s: %s", rtg_cfg.path, strerror(errno));
    return false;
  }
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
    atomic_store(&counters[RTG_CNT_WRITE_ERRORS], 0);
    return false;
  }
  return true;
}

static void atfork_prepare(void) {
  pthread_mutex_lock(&drain_mu);
}
static void atfork_parent(void) {
  pthread_mutex_unlock(&drain_mu);
}
static void atfork_child(void) {
  pthread_mutex_init(&drain_mu, NULL);
  rtg_thread_state_after_fork();
  rtg_tbuf_after_fork_child(); /* the parent's records are the parent's to write */
  for (int i = 0; i < RTG_CNT_COUNT; i++) atomic_store(&counters[i], 0);
  atomic_store(&cut_off, 0); /* the child writes a file of its own */
  writer_running = false;
  rtg_tbuf_set_writer_alive(false);
  if (!atomic_load(&sink_open)) return;
  if (out_fd >= 0) close(out_fd);
  if (!open_output()) {
    atomic_store(&sink_open, 0);
    return;
  }
  start_writer();
}

bool rtg_sink_open(void) {
  static bool atfork_done;
  rtg_tbuf_configure((size_t)rtg_cfg.buffer_mb << 20,
                     rtg_cfg.buffer_drop ? RTG_FULL_DROP : RTG_FULL_WAIT);
  rtg_tbuf_set_kick(wake_writer);
  if (!open_output()) return false;
  if (!atfork_done) {
    pthread_atfork(atfork_prepare, atfork_parent, atfork_child);
    atfork_done = true;
  }
  atomic_store(&sink_open, 1);
  start_writer();
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
static off_t put_summary(int fd) {
  rtg_record r;
  rtg_record_init(&r, RTG_KIND_SUMMARY, rtg_pid(), rtg_tid());
  r.u.SUMMARY.dispatches = rtg_counter_get(RTG_CNT_DISPATCHES);
  r.u.SUMMARY.barriers = rtg_counter_get(RTG_CNT_BARRIERS);
  r.u.SUMMARY.copies = rtg_counter_get(RTG_CNT_COPIES);
  r.u.SUMMARY.hsa_calls = rtg_counter_get(RTG_CNT_HSA_CALLS);
  r.u.SUMMARY.hip_calls = rtg_counter_get(RTG_CNT_HIP_CALLS);
  r.u.SUMMARY.lost = rtg_counter_get(RTG_CNT_LOST);
  RTG_SET(&r, SUMMARY, lost_gpu, rtg_counter_get(RTG_CNT_LOST_GPU));
  RTG_SET(&r, SUMMARY, unfinished, rtg_counter_get(RTG_CNT_UNFINISHED));
  RTG_SET(&r, SUMMARY, other_packets, rtg_counter_get(RTG_CNT_OTHER_PACKETS));
  RTG_SET(&r, SUMMARY, write_errors, rtg_counter_get(RTG_CNT_WRITE_ERRORS));
  rtg_tbuf_stats bs = rtg_tbuf_get_stats();
  RTG_SET(&r, SUMMARY, buffer_waits, bs.waits);
  RTG_SET(&r, SUMMARY, buffer_wait_ns, bs.wait_ns);
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
void rtg_sink_write_summary(int fd) {
  if (put_summary(fd) >= 0 || !atomic_load(&cut_off)) return;
  say("Cannot write the summary record to the trace file: path=", ": ", "; ",
      rtg_counter_get(RTG_CNT_WRITE_ERRORS), " writes of the trace failed");
}

static off_t exec_mark = -1;

bool rtg_sink_exec_begin(void) {
  if (!atomic_load(&sink_open)) return false;
  pthread_mutex_lock(&drain_mu); /* held until exec replaces us or fails */
  drain_all_locked(&writer_buf);
  exec_mark = put_summary(out_fd); /* no message yet: exec may fail */
  return true;
}

void rtg_sink_exec_failed(void) {
  /* the image goes on: its final summary will be written at exit */
  if (exec_mark >= 0 && ftruncate(out_fd, exec_mark) == 0) {
    lseek(out_fd, exec_mark, SEEK_SET);
    if (atomic_load(&cut_off)) cut_line_end = exec_mark;
  }
  pthread_mutex_unlock(&drain_mu);
}

void rtg_sink_close(void) {
  if (!atomic_exchange(&sink_open, 0)) return;
  stop_writer();
  rtg_sink_flush_all();
  rtg_sink_write_summary(out_fd);
  uint64_t lost = rtg_counter_get(RTG_CNT_LOST), lost_gpu = rtg_counter_get(RTG_CNT_LOST_GPU),
           unfinished = rtg_counter_get(RTG_CNT_UNFINISHED);
  if (lost || lost_gpu || unfinished)
    rtg_log(0,
            "%s: %lu records lost (buffers full), %lu GPU times unreadable, %lu GPU ops "
            "unfinished at exit",
            rtg_cfg.path, (unsigned long)lost, (unsigned long)lost_gpu, (unsigned long)unfinished);
  rtg_tbuf_stats bs = rtg_tbuf_get_stats();
  if (writer_entries)
    rtg_log(1,
            "writer: %lu records in %.3f s of its CPU time (%.2f M records/s); buffers peaked at "
            "%lu MB",
            (unsigned long)writer_entries, (double)writer_cpu_ns / 1e9,
            writer_cpu_ns ? (double)writer_entries * 1e3 / (double)writer_cpu_ns : 0.0,
            (unsigned long)(bs.peak_bytes >> 20));
  if (bs.waits)
    rtg_log(0,
            "%s: threads waited %lu times, %.3f s in all, for the writer to free buffer space "
            "(RTG_BUFFER_MB=%d; peak %lu MB)",
            rtg_cfg.path, (unsigned long)bs.waits, (double)bs.wait_ns / 1e9, rtg_cfg.buffer_mb,
            (unsigned long)(bs.peak_bytes >> 20));
  close(out_fd);
  out_fd = -1;
}
