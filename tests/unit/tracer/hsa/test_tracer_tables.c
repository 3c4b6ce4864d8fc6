#define _GNU_SOURCE
/* OnLoad with synthetic tables of every documented size: the tracer must
 * write its wrappers at the entries of the layout the version names, and
 * never read or write past a table's minor_id.  Each case runs OnLoad of
 * $B/rtg_tracer.so in a child process with RTG_HSA_API_FILTER=all, on
 * tables whose entries all point at a function returning 0 and whose
 * words past minor_id are canaries.
 *
 * The AMD-extension entries ROCm added after 5.2 (src/tracer/hsa/gen/hsa_api_list.h,
 * RTG_SINCE_ > 52) get typed runtime functions of their own, generated here
 * from the same list: each one present in the case's layout must be wrapped,
 * reach its runtime function with the arguments it was called with and
 * return what that returned, and leave an HSA API record with its name,
 * every argument name and the return value in the file the tracer writes. */
#include <dlfcn.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <hsa/hsa_ext_finalize.h>
#include <hsa/hsa_ext_image.h>

#include "check.h"
#include "rtg/hsa_table.h"

/* the types of the list's signatures (this one is declared by hsa_side.h) */
typedef void (*hsa_amd_runtime_queue_notifier)(const hsa_queue_t *queue, hsa_agent_t agent,
                                               void *data);
#include "hsa/gen/hsa_api_list.h"
#include "hsa/gen/hsa_api_args.h"

static long fake(void) {
  return 0;
}
#define CANARY 0x5a5a5a5a5a5a5a5aull
enum { WORDS = 128 };

typedef struct table {
  uint64_t w[WORDS];
} table;

static void fill(table *t, uint32_t major, uint32_t minor) {
  for (int i = 0; i < WORDS; i++) t->w[i] = CANARY;
  for (uint32_t o = 16; o + 8 <= minor; o += 8) t->w[o / 8] = (uint64_t)(uintptr_t)fake;
  rtg_table_version v = {major, minor, 0, 0};
  memcpy(t->w, &v, sizeof v);
}
static bool is_fake(const table *t, size_t off) {
  return t->w[off / 8] == (uint64_t)(uintptr_t)fake;
}
static bool canaries_intact(const table *t, uint32_t minor) {
  for (uint32_t o = (minor + 7) / 8 * 8; o < WORDS * 8; o += 8)
    if (t->w[o / 8] != CANARY) return false;
  return true;
}

typedef bool (*onload_fn)(void *, uint64_t, uint64_t, const char *const *);

/* hsa_amd_memory_async_copy_on_engine (5.6+) as the runtime: remembers
 * what reached it through the tracer's hook */
typedef struct {
  uint64_t handle;
} sig_t_;
typedef int (*on_engine_fn)(void *, sig_t_, const void *, sig_t_, size_t, uint32_t, const sig_t_ *,
                            sig_t_, int, bool);
static struct {
  void *dst;
  size_t size;
  uint64_t signal;
  int engine;
  bool force;
  int calls;
} seen;
static int fake_on_engine(void *dst, sig_t_ da, const void *src, sig_t_ sa, size_t size,
                          uint32_t ndeps, const sig_t_ *deps, sig_t_ sig, int engine, bool force) {
  (void)da, (void)src, (void)sa, (void)ndeps, (void)deps;
  seen.dst = dst, seen.size = size, seen.signal = sig.handle, seen.engine = engine;
  seen.force = force, seen.calls++;
  /* the copy is done at once: decrement the signal's value (an amd_signal_t
   * value, at offset 8), as the hardware would */
  if (sig.handle) __atomic_sub_fetch((int64_t *)(uintptr_t)sig.handle + 1, 1, __ATOMIC_RELEASE);
  return 0;
}

/* ---------------------------------------- generated from the tracer's list */

/* how the tracer turns an argument into a word */
#include "hsa/hsa_api_words.h"

enum {
#define RTG_API(T, name, ...) X_##name,
#define RTG_API_VOID(T, name, ...) X_##name,
#define RTG_API_HAND RTG_API
#include "hsa/gen/hsa_api_list.h"
#undef RTG_API
#undef RTG_API_VOID
#undef RTG_API_HAND
  X_COUNT
};
#define ONLY_CORE(x)
#define ONLY_EXT(x) x
#define ONLY_IMAGE(x)
#define ONLY_FINALIZER(x)

static const struct xinfo {
  const char *name;
  int since;
  const char *args; /* its argument names, space-separated */
} xinfo[X_COUNT] = {
#define ARGNAME(K, a, t) " " #a
#define RTG_API(T, name, ret, rk, params, call, args)                                              \
  [X_##name] = {#name, RTG_SINCE_##name, "" RTG_ARGS_##name(ARGNAME)},
#define RTG_API_VOID(T, name, params, call, args)                                                  \
  [X_##name] = {#name, RTG_SINCE_##name, "" RTG_ARGS_##name(ARGNAME)},
#include "hsa/gen/hsa_api_list.h"
#undef RTG_API
#undef RTG_API_VOID
};

/* what the last runtime function called saw */
enum { MAXW = 16 };
static struct {
  int fn, n;
  uint64_t w[MAXW];
} got;

/* the runtime's functions: record the argument words, return 0x40 + id */
#define REC(K, a, t) got.w[got.n++] = RTG_W_##K(a);
#define DEF_FAKE(name, ret, params)                                                                \
  static ret fake_##name params {                                                                  \
    got.n = 0;                                                                                     \
    got.fn = X_##name;                                                                             \
    RTG_ARGS_##name(REC) return (ret)(0x40 + X_##name);                                            \
  }
#define RTG_API(T, name, ret, rk, params, call, args) ONLY_##T(DEF_FAKE(name, ret, params))
#define RTG_API_VOID(T, name, params, call, args)
#include "hsa/gen/hsa_api_list.h"
#undef RTG_API
#undef RTG_API_VOID

/* argument k of a call: distinct words, except where the test wants an
 * enumerator (printed by name) */
static uint64_t arg_value(int x, int k) {
  if (x == X_hsa_amd_queue_get_info && k == 1) return 1;     /* HSA_AMD_QUEUE_INFO_DOORBELL_ID */
  if (x == X_hsa_amd_vmem_handle_create && k == 2) return 1; /* MEMORY_TYPE_PINNED */
  if (x == X_hsa_amd_signal_wait_all && k == 5) return HSA_WAIT_STATE_ACTIVE;
  return 0x7000 + 0x100 * (uint64_t)x + 8 * (uint64_t)k;
}
static void set_arg(void *a, size_t size, uint64_t v) {
  memset(a, 0, size);
  if (size == 1) v = v & 1 ? 1 : 0; /* bool */
  memcpy(a, &v, size < 8 ? size : 8);
}

/* call f (a table entry) as function `name` with arg_value()s; the words
 * the tracer would record are put in want */
#define SETARG(K, a, t)                                                                            \
  t a;                                                                                             \
  set_arg(&a, sizeof a, arg_value(q_x, q_k++));                                                    \
  q_want[q_nw++] = RTG_W_##K(a);
#define DEF_CALL(name, ret, params, call)                                                          \
  static uint64_t call_##name(rtg_hsa_fn q_f, uint64_t *q_want, int *q_nwant) {                    \
    int q_k = 0, q_nw = 0, q_x = X_##name;                                                         \
    (void)q_k, (void)q_x, (void)q_want;                                                            \
    RTG_ARGS_##name(SETARG) *q_nwant = q_nw;                                                       \
    return (uint64_t)((ret(*) params)q_f)call;                                                     \
  }
#define RTG_API(T, name, ret, rk, params, call, args) ONLY_##T(DEF_CALL(name, ret, params, call))
#define RTG_API_VOID(T, name, params, call, args)
#include "hsa/gen/hsa_api_list.h"
#undef RTG_API
#undef RTG_API_VOID

typedef uint64_t (*caller_fn)(rtg_hsa_fn, uint64_t *, int *);
static const struct {
  rtg_hsa_fn fake;
  caller_fn call;
} ext_fns[X_COUNT] = {
#define XFN(name) [X_##name] = {(rtg_hsa_fn)fake_##name, call_##name},
#define RTG_API(T, name, ret, rk, params, call, args) ONLY_##T(XFN(name))
#define RTG_API_VOID(T, name, params, call, args)
#include "hsa/gen/hsa_api_list.h"
#undef RTG_API
#undef RTG_API_VOID
};

/* The AMD-extension table's entries in the newest order, and per 5.x
 * layout whether it has them (include/rtg/hsa_table.h). */
static const struct {
  const char *name;
  unsigned char in[3]; /* 5.2, 5.5, 5.6 */
} ext_order[] = {
#define EXTF(name, a, b, c, since) {#name, {a, b, c}},
    RTG_AMD_EXT_TABLE_FIELDS(EXTF)};
enum { N_EXT_ORDER = sizeof ext_order / sizeof *ext_order };

/* byte offset of `name` in an AMD-extension table of that version, -1 if
 * the layout lacks it or the table is too small */
static long ext_offset(const char *name, uint32_t major, uint32_t minor) {
  int col = major != 1 ? -1 : minor <= 400 ? 0 : minor <= 424 ? 1 : 2;
  long k = 0;
  for (int i = 0; i < N_EXT_ORDER; i++) {
    if (col >= 0 && !ext_order[i].in[col]) continue;
    if (!strcmp(ext_order[i].name, name)) return 16 + 8 * k + 8 <= (long)minor ? 16 + 8 * k : -1;
    k++;
  }
  return -1;
}

/* Before OnLoad: the typed runtime functions in the slots of the entries
 * added after 5.2 that this layout has (not on_engine: its own check) */
static int new_entries_place(table *ext, uint32_t major, uint32_t minor) {
  int n = 0;
  for (int x = 0; x < X_COUNT; x++) {
    if (!ext_fns[x].fake || xinfo[x].since <= 52) continue;
    long o = ext_offset(xinfo[x].name, major, minor);
    if (o < 0) continue;
    ext->w[o / 8] = (uint64_t)(uintptr_t)ext_fns[x].fake;
    n++;
  }
  return n;
}

static uint64_t new_ret[X_COUNT]; /* what each call returned, for the records */

/* After OnLoad: each such entry is wrapped and passes its call through. */
static int new_entries_call(const table *ext, uint32_t major, uint32_t minor, int release) {
  for (int x = 0; x < X_COUNT; x++) {
    if (!ext_fns[x].fake || xinfo[x].since <= 52) continue;
    long o = ext_offset(xinfo[x].name, major, minor);
    /* the table has the entry exactly when its release does */
    if ((o >= 0) != (xinfo[x].since <= release)) {
      fprintf(stderr, "%s: in table %d.%u: %d, since %d\n", xinfo[x].name, major, minor, o >= 0,
              xinfo[x].since);
      return 70;
    }
    if (o < 0) continue;
    rtg_hsa_fn f = (rtg_hsa_fn)(uintptr_t)ext->w[o / 8];
    if (f == ext_fns[x].fake) {
      fprintf(stderr, "%s: not wrapped\n", xinfo[x].name);
      return 71;
    }
    uint64_t want[MAXW];
    int nwant = 0;
    memset(&got, 0, sizeof got);
    got.fn = -1;
    uint64_t r = ext_fns[x].call(f, want, &nwant);
    if (got.fn != x || got.n != nwant || memcmp(got.w, want, 8 * (size_t)nwant)) {
      fprintf(stderr, "%s: the runtime's function saw other arguments\n", xinfo[x].name);
      return 72;
    }
    if ((uint32_t)r != 0x40u + (uint32_t)x) return 73;
    new_ret[x] = (uint32_t)r;
  }
  return 0;
}

/* After OnUnload: one HSA API record per call, with its argument names
 * and return value; the enumerators asked for by name. */
static int new_entries_records(uint32_t major, uint32_t minor, int release) {
  char path[64], line[4096];
  snprintf(path, sizeof path, "tables_trace.%d", (int)getpid());
  static int count[X_COUNT];
  int enum_names = 0;
  FILE *fp = fopen(path, "r");
  if (!fp) return 80;
  while (fgets(line, sizeof line, fp)) {
    if (strncmp(line, "HSA: ", 5)) continue;
    for (int x = 0; x < X_COUNT; x++) {
      if (!ext_fns[x].fake || xinfo[x].since <= 52 || !new_ret[x]) continue;
      char key[128], ret[64];
      snprintf(key, sizeof key, " %s (", xinfo[x].name);
      snprintf(ret, sizeof ret, ") ret=%llu @", (unsigned long long)new_ret[x]);
      if (!strstr(line, key) || !strstr(line, ret)) continue;
      const char *a = xinfo[x].args;
      bool all = true;
      while (*a == ' ') {
        char an[64];
        int len = (int)strcspn(a + 1, " ");
        snprintf(an, sizeof an, "%.*s=", len, a + 1);
        all &= strstr(line, an) != NULL;
        a += 1 + len;
      }
      if (all) count[x]++;
    }
    enum_names += strstr(line, "attribute=HSA_AMD_QUEUE_INFO_DOORBELL_ID") != NULL;
    enum_names += strstr(line, "type=MEMORY_TYPE_PINNED") != NULL;
    enum_names += strstr(line, "wait_hint=HSA_WAIT_STATE_ACTIVE") != NULL;
    enum_names += strstr(line, "attribute=HSA_AMD_AGENT_INFO_NUM_XCC") != NULL;
    enum_names += strstr(line, "extension=HSA_EXTENSION_AMD_PROFILER") != NULL;
  }
  fclose(fp);
  for (int x = 0; x < X_COUNT; x++) {
    if (!ext_fns[x].fake || xinfo[x].since <= 52 || !new_ret[x]) continue;
    if (count[x] != 1) {
      fprintf(stderr, "%s: %d records\n", xinfo[x].name, count[x]);
      return 81;
    }
  }
  int want = 2 + (release >= 60) + (release >= 62) + (release >= 64); /* 64: signal_wait_all */
  (void)major, (void)minor;
  if (enum_names != want) {
    fprintf(stderr, "%d enumerators printed by name, not %d\n", enum_names, want);
    return 82;
  }
  return 0;
}

/* Call the table's on_engine entry (the hook, wrapped) once; it must
 * reach the runtime's with the same arguments. */
static void *lib; /* rtg_tracer.so */
/* A signal handle is the address of the runtime's amd_signal_t, whose value
 * (at offset 8) the tracer raises and reads: the application's 1 ... */
static int64_t fake_signal[8] __attribute__((aligned(64))) = {0, 1};

static int call_on_engine(const table *ext, size_t off) {
  on_engine_fn f = (on_engine_fn)(uintptr_t)ext->w[off / 8];
  if ((void *)f == (void *)fake_on_engine) return 60; /* not hooked */
  char buf[64] = {0};
  if (f(buf, (sig_t_){0}, buf + 32, (sig_t_){0}, 32, 0, NULL,
        (sig_t_){(uint64_t)(uintptr_t)fake_signal}, 2, true))
    return 61;
  if (seen.calls != 1 || seen.dst != buf || seen.size != 32 || seen.engine != 2 || !seen.force ||
      seen.signal != (uint64_t)(uintptr_t)fake_signal)
    return 62;
  return 0;
}
/* In the file OnUnload completed: the copy, with that api, and the API
 * record of the call, its engine by name. */
static int check_on_engine_records(void) {
  char path[64], line[4096];
  snprintf(path, sizeof path, "tables_trace.%d", (int)getpid());
  FILE *fp = fopen(path, "r");
  int found = 0, api = 0;
  while (fp && fgets(line, sizeof line, fp)) {
    found += strstr(line, " copy ") && strstr(line, " bytes:32 ") &&
             strstr(line, "api:async_copy_on_engine");
    api += !strncmp(line, "HSA: ", 5) && strstr(line, " hsa_amd_memory_async_copy_on_engine (") &&
           strstr(line, " size=32,") && strstr(line, "engine_id=HSA_AMD_SDMA_ENGINE_1,") &&
           strstr(line, "force_copy_on_sdma=true)");
  }
  if (fp) fclose(fp);
  return found != 1 ? 63 : api != 1 ? 64 : 0;
}

/* The release of an AMD-extension table version (52: 5.2), 0: unknown. */
static int release_of(uint32_t major, uint32_t minor) {
  static const struct {
    uint32_t major, minor;
    int release;
  } r[] = {{1, 400, 52}, {1, 424, 55}, {1, 456, 56}, {2, 552, 60}, {2, 560, 61},
           {2, 576, 62}, {2, 584, 63}, {2, 592, 64}, {2, 608, 70}, {2, 624, 72}};
  for (size_t i = 0; i < sizeof r / sizeof *r; i++)
    if (r[i].major == major && r[i].minor == minor) return r[i].release;
  return 0;
}

/* Core entries whose arguments print enumerators the 5.2 headers lack or
 * that are not of the argument's declared type. */
static int call_core_enums(const table *core) {
  hsa_status_t (*gi)(hsa_agent_t, hsa_agent_info_t, void *) =
      (hsa_status_t(*)(hsa_agent_t, hsa_agent_info_t, void *))(
          uintptr_t)core->w[offsetof(rtg_core_table, hsa_agent_get_info_fn) / 8];
  hsa_status_t (*es)(uint16_t, uint16_t, uint16_t, bool *) =
      (hsa_status_t(*)(uint16_t, uint16_t, uint16_t, bool *))(
          uintptr_t)core->w[offsetof(rtg_core_table, hsa_system_extension_supported_fn) / 8];
  uint32_t v = 0;
  bool b = false;
  gi((hsa_agent_t){1}, (hsa_agent_info_t)0xA111 /* HSA_AMD_AGENT_INFO_NUM_XCC, 6.x */, &v);
  es(HSA_EXTENSION_AMD_PROFILER, 1, 0, &b);
  return 0;
}

/* One case in a child: 0 = all checks passed, else the number of the
 * first failed check. */
static int run_case(uint32_t root_minor, uint32_t ext_major, uint32_t ext_minor) {
  static table core, ext, image, fin;
  static uint64_t root[16];
  fill(&core, 1, sizeof(rtg_core_table));
  fill(&ext, ext_major, ext_minor);
  fill(&image, 1, sizeof(rtg_image_table));
  fill(&fin, 1, sizeof(rtg_finalizer_table));
  for (int i = 0; i < 16; i++) root[i] = CANARY;
  rtg_table_version v = {1, root_minor, 0, 0};
  memcpy(root, &v, sizeof v);
  root[2] = (uintptr_t)&core, root[3] = (uintptr_t)&ext, root[4] = (uintptr_t)&fin,
  root[5] = (uintptr_t)&image;
  if (root_minor >= 56) root[6] = 0; /* tools_ (6.1+), none here */
  if (root_minor >= 64) root[7] = 0;
  const char *b = getenv("B");
  char path[4096];
  snprintf(path, sizeof path, "%s/rtg_tracer.so", b ? b : "build");
  size_t on_engine_off =
      ext_major == 1 && ext_minor == 456
          ? offsetof(rtg_amd_ext_table_5_6, hsa_amd_memory_async_copy_on_engine_fn)
      : ext_major == 2 ? offsetof(rtg_amd_ext_table, hsa_amd_memory_async_copy_on_engine_fn)
                       : 0;
  if (on_engine_off) ext.w[on_engine_off / 8] = (uint64_t)(uintptr_t)fake_on_engine;
  if (release_of(ext_major, ext_minor)) new_entries_place(&ext, ext_major, ext_minor);
  void *h = dlopen(path, RTLD_NOW);
  lib = h;
  if (!h) {
    fprintf(stderr, "dlopen %s: %s\n", path, dlerror());
    return 90;
  }
  onload_fn onload = (onload_fn)dlsym(h, "OnLoad");
  if (!onload || !onload(root, 1, 0, NULL)) return 91;
  if (!canaries_intact(&ext, ext_minor)) return 1;
  if (!canaries_intact(&core, sizeof(rtg_core_table))) return 2;
  if (root_minor < 56 && root[6] != CANARY) return 3;
  /* core: wrapped, except hsa_init/hsa_shut_down */
  if (is_fake(&core, offsetof(rtg_core_table, hsa_signal_create_fn))) return 4;
  if (!is_fake(&core, offsetof(rtg_core_table, hsa_init_fn))) {
    Dl_info di;
    dladdr((void *)(uintptr_t)core.w[2], &di);
    fprintf(stderr, "hsa_init entry %s+%#lx\n", di.dli_fname,
            (unsigned long)((uintptr_t)core.w[2] - (uintptr_t)di.dli_fbase));
    return 5;
  }
  /* entries shared by every layout */
  if (is_fake(&ext, offsetof(rtg_amd_ext_table, hsa_amd_memory_async_copy_fn))) return 6;
  if (ext_major == 1 && ext_minor == 400) {
    if (is_fake(&ext, offsetof(rtg_amd_ext_table_5_2, hsa_amd_queue_cu_get_mask_fn))) return 10;
    if (is_fake(&ext, offsetof(rtg_amd_ext_table_5_2, hsa_amd_agent_memory_pool_get_info_fn)))
      return 11;
  }
  if (ext_major == 1 && ext_minor == 424) {
    /* spm_* wrapped (5.5 entries); cu_get_mask moved after them */
    if (is_fake(&ext, offsetof(rtg_amd_ext_table_5_5, hsa_amd_spm_acquire_fn))) return 20;
    if (is_fake(&ext, offsetof(rtg_amd_ext_table_5_5, hsa_amd_queue_cu_get_mask_fn))) return 21;
  }
  if (ext_major == 1 && ext_minor == 456) {
    /* copy_on_engine hooked (copies), both wrapped, and the entries after
     * them shifted by two */
    if (is_fake(&ext, offsetof(rtg_amd_ext_table_5_6, hsa_amd_memory_copy_engine_status_fn)))
      return 31;
    if (is_fake(&ext, offsetof(rtg_amd_ext_table_5_6, hsa_amd_agent_memory_pool_get_info_fn)))
      return 32;
    if (is_fake(&ext, offsetof(rtg_amd_ext_table_5_6, hsa_amd_queue_cu_get_mask_fn))) return 33;
  }
  if (ext_major == 2) {
    if (is_fake(&ext, offsetof(rtg_amd_ext_table, hsa_amd_queue_cu_get_mask_fn))) return 41;
    if (is_fake(&ext, offsetof(rtg_amd_ext_table, hsa_amd_vmem_map_fn))) return 42;
  }
  if (ext_major == 3) { /* unknown: only the shared prefix is touched */
    if (!is_fake(&ext, offsetof(rtg_amd_ext_table, hsa_amd_agent_memory_pool_get_info_fn)))
      return 50;
  }
  int rc = on_engine_off ? call_on_engine(&ext, on_engine_off) : 0;
  int release = release_of(ext_major, ext_minor);
  if (!rc && release) rc = new_entries_call(&ext, ext_major, ext_minor, release);
  if (!rc && release) rc = call_core_enums(&core);
  if (rc) return rc;
  void (*unload)(void) = (void (*)(void))dlsym(lib, "OnUnload");
  if (unload) unload();
  if (on_engine_off && (rc = check_on_engine_records())) return rc;
  if (release && (rc = new_entries_records(ext_major, ext_minor, release))) return rc;
  return 0;
}

int main(void) {
  static const struct {
    uint32_t root_minor, ext_major, ext_minor;
    const char *what;
  } cases[] = {
      {48, 1, 400, "5.2-5.4"}, {48, 1, 424, "5.5"},           {48, 1, 456, "5.6/5.7"},
      {48, 2, 552, "6.0"},     {56, 2, 560, "6.1"},           {64, 2, 576, "6.2"},
      {64, 2, 584, "6.3"},     {64, 2, 592, "6.4"},           {64, 2, 608, "7.0"},
      {64, 2, 624, "7.2"},     {64, 3, 700, "unknown major"}, {48, 1, 200, "truncated 5.x"},
  };
  setenv("RTG_HSA_API_FILTER", "all", 1);
  setenv("RTG_FILENAME", "tables_trace", 1);
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) _exit(run_case(cases[i].root_minor, cases[i].ext_major, cases[i].ext_minor));
    int st = 0;
    waitpid(pid, &st, 0);
    int code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    if (code)
      fprintf(stderr, "OnLoad with the %s AMD-extension table: check %d failed\n", cases[i].what,
              code);
    CHECK_U64(code, 0);
  }
  return check_done("test_tracer_tables");
}
