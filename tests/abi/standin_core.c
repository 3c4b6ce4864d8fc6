/* A minimal stand-in for the HSA side of rtg_tracer.so (tracer.h), so the
 * HIP/ROCTx/backtrace parts can be tested alone, with no HSA runtime: the
 * ABI tests link it with src/tracer/{hip_*,roctx*,backtrace}.o into a small
 * tracer library.  Records are formatted with the real writer and written
 * with one write(2) each under a lock (simplicity over speed here).
 * The environment is read as the real config does for the settings the HIP
 * side uses.  rtg_standin_init()/fini() play OnLoad/OnUnload. */
#define _GNU_SOURCE
#include "core/tracer.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

rtg_config rtg_cfg;
static int out_fd = -1;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic uint64_t corr_counter;
static __thread uint64_t corr_current;
static __thread int inside;
static _Atomic uint64_t counters[RTG_CNT_COUNT];

static bool tok_match(const char *spec, const char *name, bool prefix_all) {
  char buf[1024];
  snprintf(buf, sizeof buf, "%s", spec);
  for (char *save, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
    if (prefix_all && !strcmp(t, "all")) return true;
    if (*t && strstr(name, t)) return true;
  }
  return false;
}

bool rtg_filter_match(const rtg_filter *in, const rtg_filter *out, const char *name, bool dflt) {
  bool keep = in->spec ? tok_match(in->spec, name, true) : (out->spec ? true : dflt);
  if (keep && out->spec && tok_match(out->spec, name, false)) keep = false;
  return keep;
}

uint64_t rtg_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_BOOTTIME, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint32_t rtg_pid(void) {
  return (uint32_t)getpid();
}
uint64_t rtg_tid(void) {
  return (uint64_t)syscall(SYS_gettid);
}

void rtg_emit(const rtg_record *r) {
  char buf[8192];
  size_t n = rtg_record_format(buf, sizeof buf, r);
  if (!n || out_fd < 0) return;
  pthread_mutex_lock(&out_lock);
  ssize_t w = write(out_fd, buf, n);
  (void)w;
  pthread_mutex_unlock(&out_lock);
}

void rtg_count(rtg_counter c, uint64_t n) {
  atomic_fetch_add(&counters[c], n);
}
uint64_t rtg_corr_next(void) {
  return atomic_fetch_add(&corr_counter, 1) + 1;
}
void rtg_corr_set(uint64_t id) {
  corr_current = id;
}
uint64_t rtg_corr_get(void) {
  return corr_current;
}
bool rtg_enter(void) {
  return inside++ == 0;
}
void rtg_leave(void) {
  inside--;
}

void rtg_log(int level, const char *fmt, ...) {
  if (level > rtg_cfg.verbose) return;
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  fprintf(stderr, "rtg: %s\n", buf);
}

static bool env_bool(const char *n, bool dflt) {
  const char *v = getenv(n);
  if (!v) return dflt;
  return !(!strcmp(v, "0") || !strcasecmp(v, "false") || !strcasecmp(v, "no") || !*v);
}

void rtg_standin_init(void);
void rtg_standin_fini(void);

void rtg_standin_init(void) {
  const char *f = getenv("RTG_FILENAME");
  snprintf(rtg_cfg.path, sizeof rtg_cfg.path, "%s.%d", f ? f : "rtg_trace.txt", (int)getpid());
  out_fd = open(rtg_cfg.path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
  rtg_cfg.hip_filter.spec = getenv("RTG_HIP_API_FILTER");
  rtg_cfg.hip_filter_out.spec = getenv("RTG_HIP_API_FILTER_OUT");
  rtg_cfg.hip_api = !rtg_cfg.hip_filter.spec || *rtg_cfg.hip_filter.spec;
  rtg_cfg.hip_args = env_bool("RTG_HIP_API_ARGS", false);
  rtg_cfg.verbose = getenv("RTG_VERBOSE") ? atoi(getenv("RTG_VERBOSE")) : 0;
  rtg_cfg.roctx = env_bool("RTG_ROCTX", true);
  rtg_cfg.kernel_rename = env_bool("RTG_KERNEL_RENAME", false);
  rtg_cfg.backtrace = getenv("RTG_BACKTRACE");
  rtg_hip_init();
  atexit(rtg_standin_fini); /* HIP never calls hsa_shut_down */
}

void rtg_standin_fini(void) {
  rtg_hip_fini();
  if (out_fd >= 0) close(out_fd);
  out_fd = -1;
}
