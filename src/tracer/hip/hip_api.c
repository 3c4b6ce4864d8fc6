/* HIP API tracing: finding the HIP runtime, choosing the tracing path of its
 * release, the filters, and the one record every path writes per call.
 *
 * Paths (DESIGN §4.3), chosen at run time in this order:
 *   dispatch-table   6.2+: rocprofiler-register handed HipDispatchTable to
 *                    the preloaded rtg_register.so (LD_PRELOAD +
 *                    ROCPROFILER_REGISTER_LIBRARY, see hip_dispatch_table.c);
 *                    taken and wrapped here at init.
 *   tracer-callback  5.3.1+: hipRegisterTracerCallback (hip_tracer_cb.c).
 *   callback-5.2     <= 5.3.0: hipRegisterApiCallback + ActivityCallback
 *                    (hip_cb_legacy.c).
 * HIP is never linked: its symbols are looked up in the already loaded
 * runtime, so the tracer loads in pure HSA programs too. */
#define _GNU_SOURCE
#include "core/backtrace.h"
#include "hip_internal.h"
#include "roctx/roctx.h"

#include <dlfcn.h>
#include <string.h>

rtg_hip_state rtg_hip;
__thread int rtg_hip_inside;

static void *hip_lib;
static const char *stop_path; /* which path to stop at fini */
/* Names from hipApiName() for a release newer than our tables. */
static const char *probed_names[1024];
static rtg_hip_release probed_rel;

/* The HIP runtime the application loaded, if any: global symbols first,
 * then the sonames of each major release (a framework may have dlopened it
 * RTLD_LOCAL).  RTLD_NOLOAD: never load HIP into a program that has none. */
static void *find_hip(void) {
  static const char *const sonames[] = {"libamdhip64.so",   "libamdhip64.so.7", "libamdhip64.so.6",
                                        "libamdhip64.so.5", "libamdhip64.so.4", NULL};
  for (int i = 0; sonames[i]; i++) {
    void *h = dlopen(sonames[i], RTLD_LAZY | RTLD_NOLOAD);
    if (h) return h;
  }
  /* (RTLD_DEFAULT is NULL, so it cannot be the "found" answer) */
  Dl_info info;
  void *sym = dlsym(RTLD_DEFAULT, "hipApiName");
  if (sym && dladdr(sym, &info) && info.dli_fname)
    return dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
  return NULL;
}

/* Identify the release by its last op id: hipApiName() is a pure lookup in
 * every release (it calls no HIP initialisation) and says "unknown" past the
 * last id. */
static const rtg_hip_release *probe_release(void *lib) {
  const char *(*api_name)(uint32_t) = (const char *(*)(uint32_t))dlsym(lib, "hipApiName");
  if (!api_name) return NULL;
  uint32_t last = 0;
  for (uint32_t id = 1; id < 1024; id++) {
    const char *n = api_name(id);
    if (n && strcmp(n, "unknown") != 0) last = id;
  }
  const rtg_hip_release *r = rtg_hip_release_by_last(last);
  if (r) {
    /* a cheap sanity check that the table matches the library */
    uint32_t bad = 0;
    for (uint32_t id = 1; id <= last; id++) {
      const char *n = api_name(id);
      if (r->names[id] && n && strcmp(n, "unknown") != 0 && strcmp(n, r->names[id]) != 0) bad++;
    }
    if (!bad) return r;
    rtg_log(1, "HIP op table %s differs from hipApiName in %u names; using HIP's names", r->name,
            bad);
  }
  /* Unknown release: take the names from HIP itself.  The 5.3.1+ path stays
   * off (the size of hip_api_data_t is unknown), see hip_tracer_cb.c. */
  for (uint32_t id = 1; id <= last; id++) {
    const char *n = api_name(id);
    probed_names[id] = n && strcmp(n, "unknown") != 0 ? n : NULL;
  }
  probed_rel.name = "unknown";
  probed_rel.last_op = last;
  probed_rel.data_size = r ? r->data_size : 0;
  probed_rel.names = probed_names;
  return last ? &probed_rel : NULL;
}

int rtg_hip_name_traced(const char *name) {
  return rtg_filter_match(&rtg_cfg.hip_filter, &rtg_cfg.hip_filter_out, name, true);
}

static void setup_ops(void) {
  const rtg_hip_release *r = rtg_hip.rel;
  memset(rtg_hip.enabled, 0, sizeof(rtg_hip.enabled));
  memset(rtg_hip.backtrace, 0, sizeof(rtg_hip.backtrace));
  rtg_hip_args_setup();
  unsigned kept = 0;
  for (uint32_t op = 1; op <= r->last_op && op < sizeof(rtg_hip.enabled); op++) {
    const char *n = r->names[op];
    if (!n) continue;
    bool keep = rtg_hip_name_traced(n);
    rtg_hip.enabled[op] = keep;
    rtg_hip.backtrace[op] = keep && rtg_bt_selects(n);
    kept += keep;
    rtg_log(2, "HIP API %s %s", keep ? "keep" : "skip", n);
  }
  rtg_log(1, "HIP API: %u of the release's functions traced", kept);
}

int rtg_hip_callback_active(void) {
  return stop_path != NULL;
}

void rtg_hip_init(void) {
  rtg_bt_setup(rtg_cfg.backtrace);
  /* 6.2+ tables first: when they are ours, neither HIP nor ROCTx callbacks
   * are registered (no call traced twice) */
  rtg_hip_dispatch_table_attach();
  rtg_roctx_init();
  if (rtg_hip_dispatch_table_active()) {
    /* 6.2+ and preloaded: every call already goes through our table. */
    rtg_hip.path = "dispatch-table";
    rtg_log(1, "HIP API tracing: HipDispatchTable via rocprofiler-register (%s)",
            rtg_hip_dispatch_table_describe());
    return;
  }
  if (!rtg_cfg.hip_api) {
    rtg_log(1, "HIP API tracing: off");
    return;
  }
  hip_lib = find_hip();
  if (!hip_lib) {
    rtg_log(1, "HIP API tracing: no HIP runtime in this process");
    return;
  }
  rtg_hip.rel = probe_release(hip_lib);
  if (!rtg_hip.rel) {
    rtg_log(
        0,
        "HIP API tracing: cannot identify the HIP release (no hipApiName); HIP calls not traced");
    return;
  }
  *(void **)&rtg_hip.kernel_name_ref = dlsym(hip_lib, "hipKernelNameRef");
  *(void **)&rtg_hip.kernel_name_by_ptr = dlsym(hip_lib, "hipKernelNameRefByPtr");
  *(void **)&rtg_hip.peek_at_last_error = dlsym(hip_lib, "hipPeekAtLastError");
  setup_ops();
  if (dlsym(hip_lib, "hipRegisterTracerCallback")) {
    if (rtg_hip_tracer_cb_start(hip_lib) == 0) {
      rtg_hip.path = stop_path = "tracer-callback";
    }
  } else if (rtg_hip_legacy_start(hip_lib) == 0) {
    rtg_hip.path = stop_path = "callback-5.2";
  }
  if (rtg_hip.path)
    rtg_log(1, "HIP API tracing: %s path, HIP op table %s (last op %u)", rtg_hip.path,
            rtg_hip.rel->name, rtg_hip.rel->last_op);
  else
    rtg_log(0, "HIP API tracing: no usable HIP tracing interface; HIP calls not traced");
}

void rtg_hip_fini(void) {
  rtg_hip_dispatch_table_stop();
  if (stop_path && !strcmp(stop_path, "tracer-callback"))
    rtg_hip_tracer_cb_stop();
  else if (stop_path)
    rtg_hip_legacy_stop();
  stop_path = NULL;
  rtg_roctx_fini();
  rtg_bt_symbolize();
}

/* ------------------------------------------------------------ per call */

void rtg_hip_begin_named(rtg_hip_call *c, const char *name, uint8_t backtrace) {
  c->name = name;
  c->op = 0;
  c->backtrace = backtrace;
  c->prev_corr = rtg_corr_get();
  c->corr = rtg_corr_next();
  rtg_corr_set(c->corr);
  c->start = rtg_now(); /* last, so the bookkeeping is not in the duration */
}

void rtg_hip_begin(rtg_hip_call *c, uint32_t op) {
  rtg_hip_begin_named(c, rtg_hip_op_name(op),
                      op < sizeof(rtg_hip.backtrace) && rtg_hip.backtrace[op]);
  c->op = op;
}

/* The HIP record is a deferred one (rtg_emit_deferred): the application's
 * thread only fills this entry and copies it, the writer thread makes the
 * line (formatting the numbers was most of the cost of a traced call).
 * The function name is static (our op tables, HIP's hipApiName strings, the
 * dispatch-table slot names); the return value, the argument text and the
 * kernel name are not: they follow the header, each with its NUL. */
typedef struct hip_entry {
  const char *func;
  uint64_t start, dur, corr, stack;       /* stack 0: none */
  uint16_t ret_len, args_len, kernel_len; /* with the NUL; 0: absent */
} hip_entry;

enum { HIP_ENTRY_MAX = 8192 }; /* the sink's limit on one entry */

/* The text of s[0..len) is a string: ends in its NUL. */
static bool is_str(const char *s, size_t len) {
  return len && !s[len - 1];
}

static bool fill_hip(rtg_record *r, const void *payload, size_t len, uint32_t pid, uint64_t tid) {
  hip_entry e;
  if (len < sizeof e) return false;
  memcpy(&e, payload, sizeof e);
  const char *ret = (const char *)payload + sizeof e, *args = ret + e.ret_len,
             *kernel = args + e.args_len;
  if (sizeof e + (size_t)e.ret_len + e.args_len + e.kernel_len > len || !is_str(ret, e.ret_len) ||
      (e.args_len && !is_str(args, e.args_len)) || (e.kernel_len && !is_str(kernel, e.kernel_len)))
    return false;
  rtg_record_init(r, RTG_KIND_HIP_API, pid, tid);
  r->u.HIP_API.func = e.func;
  r->u.HIP_API.ret = ret;
  r->u.HIP_API.start = e.start;
  r->u.HIP_API.dur = e.dur;
  if (e.args_len) RTG_SET(r, HIP_API, args, args);
  if (e.kernel_len) RTG_SET(r, HIP_API, kernel, kernel);
  RTG_SET(r, HIP_API, corr, e.corr);
  if (e.stack) RTG_SET(r, HIP_API, stack, e.stack);
  return true;
}

/* A core without a deferred sink (the stand-in core of the HIP ABI tests)
 * makes the record at once; the tracer's sink.c overrides this. */
__attribute__((weak)) void rtg_emit_deferred(rtg_record_fill fill, const void *payload,
                                             size_t len) {
  rtg_record r;
  if (fill(&r, payload, len, rtg_pid(), rtg_tid())) rtg_emit(&r);
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

void rtg_hip_end_text(rtg_hip_call *c, const char *args, const char *kernel, int64_t ret) {
  uint64_t end = rtg_now();
  rtg_corr_set(c->prev_corr);
  union {
    hip_entry e;
    char bytes[HIP_ENTRY_MAX];
  } u;
  memset(&u.e, 0, sizeof u.e); /* no stray bytes in the trace buffers */
  u.e.func = c->name;
  u.e.start = c->start;
  u.e.dur = end - c->start;
  u.e.corr = c->corr;
  if (c->backtrace && rtg_bt_long_enough(end - c->start)) u.e.stack = rtg_bt_capture(2);
  /* the return value: a few digits, "?" when unknown */
  char retbuf[24];
  char *p = retbuf + sizeof retbuf;
  *--p = 0;
  if (ret < 0) {
    *--p = '?';
  } else {
    uint64_t v = (uint64_t)ret;
    do *--p = (char)('0' + v % 10);
    while ((v /= 10));
  }
  size_t n = sizeof u.e;
  u.e.ret_len = put_text(u.bytes, &n, p);
  u.e.args_len = put_text(u.bytes, &n, args);
  u.e.kernel_len = put_text(u.bytes, &n, kernel);
  if ((args && !u.e.args_len) || (kernel && !u.e.kernel_len))
    rtg_count(RTG_CNT_LOST, 1); /* longer than a record may be */
  else
    rtg_emit_deferred(fill_hip, u.bytes, n);
  rtg_count(RTG_CNT_HIP_CALLS, 1);
}

void rtg_hip_end(rtg_hip_call *c, const void *args, int64_t ret) {
  /* HIP does not show a tracer the return value; the runtime's per-thread
   * last error holds it when the call returns, and peeking leaves it as is.
   * (hipGetLastError itself resets it, so its own value is not knowable.) */
  if (ret < 0 && rtg_hip.peek_at_last_error) {
    rtg_hip_inside++;
    ret = rtg_hip.peek_at_last_error();
    rtg_hip_inside--;
  }
  char argbuf[512];
  const char *a = NULL;
  if (rtg_cfg.hip_args && args && c->op < sizeof(rtg_hip.decoder) && rtg_hip.decoder[c->op]) {
    rtg_hip_args_format(argbuf, sizeof argbuf, c->op, args);
    a = argbuf;
  }
  rtg_hip_end_text(c, a, args ? rtg_hip_args_kernel(c->op, args) : NULL, ret);
}
