/* HIP API tracing through the GOT (RTG_HIP_PATH=got): every other loaded
 * object's calls to HIP's exported functions go through their GOT slots to
 * the dispatch-table path's trampolines (hip_trampoline.c), the way
 * process/got_hook.c sends exec* to the tracer.
 *
 * Why: the callback paths of HIP <= 5.3 make HIP profile every command as
 * soon as a tool registers any callback (hipRegisterActivityCallback sets
 * its profiler flag: facts in ROCm/hipamd src/hip_prof_api.h), which
 * stretches a program that synchronizes often by itself; no callback is
 * registered here.  What it sees: the calls other objects make to HIP
 * (the application's, its libraries'), not HIP's calls among its own
 * functions, nor calls through pointers from dlsym.  Objects loaded later
 * are patched when the writer next looks (got_hook.c), for the functions
 * already found.
 *
 * Two passes, because the patching runs under the loader's lock, where
 * dlsym may not be called: the first collects the hip* names the objects
 * import, then each is looked up in HIP (and kept only if HIP defines it:
 * hipblas* and the like belong to other libraries), then the second pass
 * writes the stubs of those. */
#define _GNU_SOURCE
#include "hip_internal.h"
#include "core/got_hook.h"

#include <dlfcn.h>
#include <string.h>

enum { MAX_FNS = 1024, NAME_MAX_LEN = 96 };

typedef struct fn {
  char name[NAME_MAX_LEN];
  void *stub; /* NULL: not HIP's, or not traced */
} fn;

static fn fns[MAX_FNS];
static int nfns;
static bool collecting;
static void *hip;

static bool hip_name(const char *name) {
  return !strncmp(name, "hip", 3) || !strncmp(name, "__hip", 5);
}

static fn *lookup(const char *name) {
  for (int i = 0; i < nfns; i++)
    if (!strcmp(fns[i].name, name)) return &fns[i];
  return NULL;
}

/* Under the loader's lock: no dlsym, no malloc. */
static void *match(const char *name) {
  if (!hip_name(name)) return NULL;
  fn *f = lookup(name);
  if (f) return f->stub;
  if (collecting && nfns < MAX_FNS && strlen(name) < NAME_MAX_LEN) {
    strcpy(fns[nfns].name, name);
    fns[nfns++].stub = NULL;
  }
  return NULL;
}

rtg_path_start rtg_hip_got_start(void *hip_lib) {
  if (!rtg_cfg.hip_path || strcmp(rtg_cfg.hip_path, "got")) return RTG_PATH_ABSENT;
  hip = hip_lib;
  /* HIP's own lookups, called directly (untraced), for launches' kernels */
  *(void **)&rtg_hip.kernel_name_by_ptr = dlsym(hip, "hipKernelNameRefByPtr");
  *(void **)&rtg_hip.kernel_name_ref = dlsym(hip, "hipKernelNameRef");
  const void *in_hip = dlsym(hip, "hipApiName");
  collecting = true;
  rtg_got_install_matching(match, in_hip);
  collecting = false;
  int traced = 0;
  for (int i = 0; i < nfns; i++) {
    void *orig = dlsym(hip, fns[i].name);
    Dl_info a, b;
    bool ours = orig && dladdr(orig, &a) && dladdr(in_hip, &b) && a.dli_fbase == b.dli_fbase;
    if (!ours || !rtg_cfg.hip_api || !rtg_hip_name_traced(fns[i].name)) continue;
    fns[i].stub = rtg_hip_slot_new(fns[i].name, orig);
    traced += fns[i].stub != NULL;
  }
  int slots = rtg_got_install_matching(match, in_hip);
  rtg_log(1, "HIP API tracing: GOT path, %d of %d imported HIP names traced, %d slots", traced,
          nfns, slots);
  return RTG_PATH_TAKEN;
}

void rtg_hip_got_stop(void) {
  rtg_hip_dispatch_table_stop(); /* the trampolines stop recording */
}
