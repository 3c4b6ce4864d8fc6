#define _GNU_SOURCE
/* OnLoad with synthetic tables of every documented size: the tracer must
 * write its wrappers at the entries of the layout the version names, and
 * never read or write past a table's minor_id.  Each case runs OnLoad of
 * $B/rtg_tracer.so in a child process with RTG_HSA_API_FILTER=all, on
 * tables whose entries all point at a function returning 0 and whose
 * words past minor_id are canaries. */
#include <dlfcn.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "rtg/hsa_table.h"

static long fake(void) { return 0; }
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
static bool is_fake(const table *t, size_t off) { return t->w[off / 8] == (uint64_t)(uintptr_t)fake; }
static bool canaries_intact(const table *t, uint32_t minor) {
  for (uint32_t o = (minor + 7) / 8 * 8; o < WORDS * 8; o += 8)
    if (t->w[o / 8] != CANARY) return false;
  return true;
}

typedef bool (*onload_fn)(void *, uint64_t, uint64_t, const char *const *);

/* hsa_amd_memory_async_copy_on_engine (5.6+) as the runtime: remembers
 * what reached it through the tracer's hook */
typedef struct { uint64_t handle; } sig_t_;
typedef int (*on_engine_fn)(void *, sig_t_, const void *, sig_t_, size_t, uint32_t,
                            const sig_t_ *, sig_t_, int, bool);
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
  return 0;
}

/* Call the table's on_engine entry (the hook) once; it must reach the
 * runtime's with the same arguments, and the copy must be recorded, with
 * that api, in the file OnUnload completes. */
static void *lib; /* rtg_tracer.so */
static int check_on_engine(const table *ext, size_t off) {
  on_engine_fn f = (on_engine_fn)(uintptr_t)ext->w[off / 8];
  if ((void *)f == (void *)fake_on_engine) return 60; /* not hooked */
  char buf[64] = {0};
  if (f(buf, (sig_t_){0}, buf + 32, (sig_t_){0}, 32, 0, NULL, (sig_t_){0x4000}, 3, true)) return 61;
  if (seen.calls != 1 || seen.dst != buf || seen.size != 32 || seen.engine != 3 || !seen.force ||
      seen.signal != 0x4000)
    return 62;
  void (*unload)(void) = (void (*)(void))dlsym(lib, "OnUnload");
  if (unload) unload();
  char path[64], line[1024];
  snprintf(path, sizeof path, "tables_trace.%d", (int)getpid());
  FILE *fp = fopen(path, "r");
  int found = 0;
  while (fp && fgets(line, sizeof line, fp))
    found += strstr(line, " copy ") && strstr(line, " bytes:32 ") && strstr(line, "api:async_copy_on_engine");
  if (fp) fclose(fp);
  return found == 1 ? 0 : 63;
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
  root[2] = (uintptr_t)&core, root[3] = (uintptr_t)&ext, root[4] = (uintptr_t)&fin, root[5] = (uintptr_t)&image;
  if (root_minor >= 56) root[6] = 0; /* tools_ (6.1+), none here */
  if (root_minor >= 64) root[7] = 0;
  const char *b = getenv("B");
  char path[4096];
  snprintf(path, sizeof path, "%s/rtg_tracer.so", b ? b : "build");
  size_t on_engine_off = ext_major == 1 && ext_minor == 456
                             ? offsetof(rtg_amd_ext_table_5_6, hsa_amd_memory_async_copy_on_engine_fn)
                         : ext_major == 2 ? offsetof(rtg_amd_ext_table, hsa_amd_memory_async_copy_on_engine_fn)
                                          : 0;
  if (on_engine_off) ext.w[on_engine_off / 8] = (uint64_t)(uintptr_t)fake_on_engine;
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
    fprintf(stderr, "hsa_init entry %s+%#lx\n", di.dli_fname, (unsigned long)((uintptr_t)core.w[2] - (uintptr_t)di.dli_fbase));
    return 5;
  }
  /* entries shared by every layout */
  if (is_fake(&ext, offsetof(rtg_amd_ext_table, hsa_amd_memory_async_copy_fn))) return 6;
  if (ext_major == 1 && ext_minor == 400) {
    if (is_fake(&ext, offsetof(rtg_amd_ext_table_5_2, hsa_amd_queue_cu_get_mask_fn))) return 10;
    if (is_fake(&ext, offsetof(rtg_amd_ext_table_5_2, hsa_amd_agent_memory_pool_get_info_fn))) return 11;
  }
  if (ext_major == 1 && ext_minor == 424) {
    /* spm_* are not wrapped: still the runtime's; cu_get_mask moved after them */
    if (!is_fake(&ext, offsetof(rtg_amd_ext_table_5_5, hsa_amd_spm_acquire_fn))) return 20;
    if (is_fake(&ext, offsetof(rtg_amd_ext_table_5_5, hsa_amd_queue_cu_get_mask_fn))) return 21;
  }
  if (ext_major == 1 && ext_minor == 456) {
    /* copy_on_engine hooked (copies), engine_status untouched, and the
     * entries after them shifted by two */
    if (!is_fake(&ext, offsetof(rtg_amd_ext_table_5_6, hsa_amd_memory_copy_engine_status_fn))) return 31;
    if (is_fake(&ext, offsetof(rtg_amd_ext_table_5_6, hsa_amd_agent_memory_pool_get_info_fn))) return 32;
    if (is_fake(&ext, offsetof(rtg_amd_ext_table_5_6, hsa_amd_queue_cu_get_mask_fn))) return 33;
  }
  if (ext_major == 2) {
    if (is_fake(&ext, offsetof(rtg_amd_ext_table, hsa_amd_queue_cu_get_mask_fn))) return 41;
    if (!is_fake(&ext, offsetof(rtg_amd_ext_table, hsa_amd_vmem_map_fn))) return 42;
  }
  if (ext_major == 3) { /* unknown: only the shared prefix is touched */
    if (!is_fake(&ext, offsetof(rtg_amd_ext_table, hsa_amd_agent_memory_pool_get_info_fn))) return 50;
  }
  return on_engine_off ? check_on_engine(&ext, on_engine_off) : 0;
}

int main(void) {
  static const struct {
    uint32_t root_minor, ext_major, ext_minor;
    const char *what;
  } cases[] = {
      {48, 1, 400, "5.2-5.4"}, {48, 1, 424, "5.5"}, {48, 1, 456, "5.6/5.7"}, {48, 2, 552, "6.0"},
      {56, 2, 560, "6.1"},     {64, 2, 576, "6.2"}, {64, 2, 584, "6.3"},     {64, 2, 608, "7.0"},
      {64, 3, 700, "unknown major"}, {48, 1, 200, "truncated 5.x"},
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
    if (code) fprintf(stderr, "OnLoad with the %s AMD-extension table: check %d failed\n", cases[i].what, code);
    CHECK_U64(code, 0);
  }
  return check_done("test_tracer_tables");
}
