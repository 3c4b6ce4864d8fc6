/* HIP API tracing through the GOT: every other loaded object's calls to
 * HIP's exported functions go through their GOT slots to the
 * dispatch-table path's trampolines (hip_trampoline.c), the way
 * core/got_hook.c sends exec* to the tracer (process/exec_hook.c).
 *
 * Why: the callback paths of HIP <= 5.3 make HIP profile every command as
 * long as a tool has any callback registered (hipRegisterActivityCallback
 * sets its profiler flag, removing the last one clears it: facts in
 * ROCm/hipamd rocm-5.2.3 src/hip_prof_api.h), which stretches a program
 * that synchronizes often.  Used two ways: RTG_HIP_PATH=got, with no
 * callback at all, and by default on those releases after the call during
 * which the runtime loaded the tracer (hip_cb_legacy.c's hand-over).
 *
 * What it sees: the calls other objects make to HIP (the application's,
 * its libraries'), through their GOT or through a pointer dlsym gave them
 * for a library handle (dlsym is hooked too); not HIP's calls among its own
 * functions, nor pointers looked up with RTLD_DEFAULT or RTLD_NEXT (those
 * lookups depend on who calls, so they go to dlsym untouched).  Objects
 * loaded later are patched when the writer next looks (got_hook.c), for
 * the functions already found.
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
#include <pthread.h>
#include <string.h>

enum { MAX_FNS = 1024, NAME_MAX_LEN = 96 };

typedef struct fn {
  char name[NAME_MAX_LEN];
  void *orig; /* HIP's function of that name */
  void *stub; /* NULL: not HIP's, or not traced */
} fn;

/* Appended while collecting (at install, under got_hook's lock) or under
 * fns_mu (dlsym later), read without a lock up to nfns: an entry is whole
 * before nfns counts it.  fns_mu is never held while the loader's locks
 * are taken (dlsym, dladdr): a constructor running inside dlopen may call
 * dlsym. */
static fn fns[MAX_FNS];
static int nfns;
static pthread_mutex_t fns_mu = PTHREAD_MUTEX_INITIALIZER;
static bool collecting, installed; /* installed: the dlsym hook goes in too */
static void *hip;
static const void *in_hip; /* a function of HIP's (its object is skipped) */
static void *hip_base;     /* where HIP's object is loaded (dladdr's dli_fbase) */

static bool hip_name(const char *name) {
  return !strncmp(name, "hip", 3) || !strncmp(name, "__hip", 5);
}

static fn *lookup(const char *name) {
  int n = __atomic_load_n(&nfns, __ATOMIC_ACQUIRE);
  for (int i = 0; i < n; i++)
    if (!strcmp(fns[i].name, name)) return &fns[i];
  return NULL;
}

/* Is the function at p in HIP's object (not hipblas' and the like)? */
static bool in_hip_object(const void *p) {
  Dl_info x;
  return p && hip_base && dladdr(p, &x) && x.dli_fbase == hip_base;
}

/* The stub of HIP's function orig (ours: it is HIP's), known as name; NULL
 * when it is not HIP's.  A function the filters leave out gets one that
 * records nothing but that the thread is in a HIP call (hip_cb_legacy.c's
 * watch for calls around the GOT). */
static void *stub_for(const char *name, void *orig, bool ours) {
  return ours ? rtg_hip_slot_new(name, orig, rtg_hip_name_traced(name)) : NULL;
}

/* ------------------------------------------------------------- dlsym */

/* dlsym as the objects other than HIP and the tracer call it.  A lookup in
 * a library's handle gives the same pointer whoever asks: HIP's functions
 * come back as their stubs.  RTLD_DEFAULT (0) and RTLD_NEXT (-1) depend on
 * the caller's place in the search order, which glibc takes from the
 * return address, so those jump to dlsym with the caller's own. */
RTG_HIDDEN void *rtg_hip_dlsym_hook(void *handle, const char *name);
RTG_HIDDEN void *rtg_hip_dlsym_lookup(void *handle, const char *name);
RTG_HIDDEN void *(*rtg_hip_real_dlsym)(void *, const char *);
void *(*rtg_hip_real_dlsym)(void *, const char *) = dlsym;

__asm__(".text\n"
        ".p2align 4\n"
        ".globl rtg_hip_dlsym_hook\n"
        ".hidden rtg_hip_dlsym_hook\n"
        ".type rtg_hip_dlsym_hook, @function\n"
        "rtg_hip_dlsym_hook:\n"
        "  .cfi_startproc\n"
        "  testq %rdi, %rdi\n"
        "  je 1f\n"
        "  cmpq $-1, %rdi\n"
        "  je 1f\n"
        "  jmp rtg_hip_dlsym_lookup\n"
        "1:\n"
        "  jmp *rtg_hip_real_dlsym(%rip)\n"
        "  .cfi_endproc\n"
        ".size rtg_hip_dlsym_hook, .-rtg_hip_dlsym_hook\n");

void *rtg_hip_dlsym_lookup(void *handle, const char *name) {
  void *r = dlsym(handle, name);
  if (!r || !name || !hip_name(name) || rtg_inside()) return r;
  fn *f = lookup(name);
  if (!f) {
    void *orig = dlsym(hip, name);
    bool ours = in_hip_object(orig);
    pthread_mutex_lock(&fns_mu);
    f = lookup(name);
    if (!f && nfns < MAX_FNS && strlen(name) < NAME_MAX_LEN) {
      fn *e = &fns[nfns];
      strcpy(e->name, name);
      e->orig = orig;
      e->stub = stub_for(e->name, orig, ours);
      __atomic_store_n(&nfns, nfns + 1, __ATOMIC_RELEASE);
      f = e;
    }
    pthread_mutex_unlock(&fns_mu);
  }
  /* the stub calls HIP's function: only for that very function */
  return f && f->stub && r == f->orig ? f->stub : r;
}

/* ------------------------------------------------------------- the GOT */

/* Under the loader's lock: no dlsym, no malloc. */
static void *match(const char *name) {
  if (name[0] == 'd' && !strcmp(name, "dlsym")) return installed ? rtg_hip_dlsym_hook : NULL;
  if (!hip_name(name)) return NULL;
  fn *f = lookup(name);
  if (f) return f->stub;
  if (collecting && nfns < MAX_FNS && strlen(name) < NAME_MAX_LEN) {
    strcpy(fns[nfns].name, name);
    fns[nfns].orig = fns[nfns].stub = NULL;
    __atomic_store_n(&nfns, nfns + 1, __ATOMIC_RELEASE);
  }
  return NULL;
}

int rtg_hip_got_install(void *hip_lib) {
  hip = hip_lib;
  /* HIP's own lookups, called directly (untraced), for launches' kernels */
  *(void **)&rtg_hip.kernel_name_by_ptr = dlsym(hip, "hipKernelNameRefByPtr");
  *(void **)&rtg_hip.kernel_name_ref = dlsym(hip, "hipKernelNameRef");
  in_hip = dlsym(hip, "hipApiName");
  Dl_info info;
  hip_base = in_hip && dladdr(in_hip, &info) ? info.dli_fbase : NULL;
  collecting = true;
  rtg_got_install_matching(match, in_hip);
  collecting = false;
  /* (no dlsym hook yet: nothing else appends) */
  int kept = 0, n = nfns;
  for (int i = 0; i < n; i++) {
    fn *f = &fns[i];
    f->orig = dlsym(hip, f->name);
    f->stub = stub_for(f->name, f->orig, in_hip_object(f->orig));
    kept += f->stub && rtg_hip_name_traced(f->name);
  }
  installed = true;
  int slots = rtg_got_install_matching(match, in_hip);
  rtg_log(1, "HIP API tracing: GOT, %d of %d imported HIP names traced, %d slots", kept, n, slots);
  return kept;
}

bool rtg_hip_got_bypassed(void (*self)(void)) {
  void (*me)(void) = self;
  if (!__atomic_compare_exchange_n(&rtg_corr_missing, &me, NULL, false, __ATOMIC_ACQ_REL,
                                   __ATOMIC_ACQUIRE))
    return false;
  rtg_count(RTG_CNT_HIP_MISSED_UNTIL, rtg_now()); /* (the summary says so too) */
  return true;
}

rtg_path_start rtg_hip_got_start(void *hip_lib) {
  if (!rtg_cfg.hip_path || strcmp(rtg_cfg.hip_path, "got")) return RTG_PATH_ABSENT;
  rtg_hip_got_install(hip_lib);
  return RTG_PATH_TAKEN;
}

void rtg_hip_got_stop(void) {
  rtg_hip_dispatch_table_stop(); /* the trampolines stop recording */
}
