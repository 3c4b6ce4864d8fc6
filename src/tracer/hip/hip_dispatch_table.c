/* HIP API tracing on ROCm 6.2+ through HipDispatchTable (facts: ROCm/clr
 * hipamd/include/hip/amd_detail/hip_api_trace.hpp, hipamd/src/
 * hip_api_trace.cpp; ROCm/rocprofiler-register rocprofiler_register.cpp).
 *
 * Every public hip* function of 6.2+ calls through a table of function
 * pointers, {size_t size; fn...}, append-only.  At the first HIP call HIP
 * hands "hip" (HipDispatchTable) and "hip_compiler" (HipCompilerDispatchTable)
 * to rocprofiler-register, which passes them to the tool's
 * rocprofiler_set_api_table(name, version, instance, tables, n); the tool
 * may replace pointers, and HIP reads them on every call from then on.
 * That happens before hsa_init loads us, and our exports are fixed to the
 * HSA entry points, so a tiny preloaded library (rtg_register.so) keeps the
 * tables until the tracer loads and takes them (rtg_trace/register.c,
 * process/api_tables.c); pointers replaced then still take effect for
 * every later call.
 *
 * A traced slot gets a generic trampoline (hip_trampoline.c) that works
 * for any signature; a slot the filters reject keeps HIP's pointer, so it
 * costs nothing.  Names come from the table order (hip_table_names.h,
 * generated); slots past the known ones (a newer HIP) are traced as
 * "HipDispatchTable_N". */
#include "core/backtrace.h"
#include "core/filter_check.h"
#include "hip/gen/hip_table_names.h"
#include "hip_trampoline.h"

#include <stdio.h>
#include <string.h>

typedef struct slot {
  void *orig;   /* HIP's function */
  void **entry; /* where it sits in HIP's table */
  const char *name;
  uint16_t decoder; /* hip_args.c decoder, 0: none */
  uint8_t noerr;    /* does not return hipError_t */
  uint8_t backtrace;
  uint8_t marks_only;   /* not recorded (filtered out): only marks the thread (hip_got.c) */
  uint8_t graph_launch; /* hipGraphLaunch (rtg_hip_graph_begin) */
} slot;

static slot slots[RTG_TRAMP_STUBS];
static unsigned nstubs;
static char extra_names[RTG_TRAMP_STUBS][32];
static int runtime_tables; /* HipDispatchTables wrapped */
static volatile int stopped;
static char described[160];
/* the original kernel-name lookups of the first runtime table */
static const char *(*name_by_ptr)(const void *, const void *);
static const char *(*name_ref)(const void *);

rtg_path_start rtg_hip_dispatch_table_start(void *unused) {
  (void)unused;
  return runtime_tables > 0 ? RTG_PATH_TAKEN : RTG_PATH_ABSENT;
}
const char *rtg_hip_dispatch_table_describe(void) {
  return described[0] ? described : "none";
}

/* ------------------------------------------------------------- per call */

void *rtg_hip_tramp_enter(uint32_t stub, const rtg_hip_regs *regs, rtg_hip_tframe *f,
                          const uint64_t *stack) {
  const slot *s = &slots[stub];
  f->stub = stub;
  f->traced = !stopped && !rtg_inside();
  if (f->traced && s->marks_only) { /* known to be in a HIP call, not recorded */
    f->call.ts = &rtg_tls;
    f->call.ts->hip_tramp++;
    f->traced = 2;
  } else if (f->traced) {
    f->regs = regs;
    f->stack = stack;
    rtg_hip_begin_named(&f->call, s->name, s->backtrace);
    if (s->graph_launch) rtg_hip_graph_begin(&f->call, &regs->gpr[0]);
    f->call.ts->hip_tramp++; /* (HIP's callbacks then know it is traced here) */
  }
  return s->orig;
}

void rtg_hip_tramp_exit(rtg_hip_tframe *f, uint64_t ret) {
  if (!f->traced) return;
  f->call.ts->hip_tramp--;
  if (f->traced == 2) return; /* marked only */
  const slot *s = &slots[f->stub];
  unsigned char image[256];
  const char *kernel = NULL;
  if (s->decoder) {
    rtg_hip_args_marshal(s->decoder, f->regs->gpr, f->stack, image, sizeof image);
    kernel = rtg_hip_args_kernel_dec(s->decoder, image);
  }
  /* hipError_t is a C enum: the low 32 bits of rax */
  rtg_hip_end_dec(&f->call, rtg_cfg.hip_args ? s->decoder : 0, image, kernel,
                  s->noerr ? -1 : (int64_t)(int32_t)(uint32_t)ret);
}

/* ------------------------------------------------------------- wrapping */

/* The next stub, for HIP's function orig (the caller checked one is
 * left); entry: where it sits in a table, or NULL. */
static void *slot_new(const char *name, void *orig, void **entry, uint8_t noerr, bool record) {
  slot *s = &slots[nstubs];
  s->orig = orig;
  s->entry = entry;
  s->name = name;
  /* decode only what is written: arguments, or a launch's kernel name */
  unsigned dec = rtg_hip_args_find(name);
  s->decoder = (uint16_t)(rtg_cfg.hip_args || rtg_hip_args_is_launch(dec) ? dec : 0);
  s->noerr = noerr;
  s->backtrace = rtg_bt_selects(name);
  s->marks_only = !record;
  s->graph_launch = !strcmp(name, "hipGraphLaunch");
  return rtg_hip_tramp_stub(nstubs++);
}

/* The index of name in a table's names, or -1. */
static int find_in(const char *const *names, int n, const char *name) {
  for (int i = 0; i < n; i++)
    if (!strcmp(names[i], name)) return i;
  return -1;
}
static int find_name(const char *name) {
  return find_in(rtg_hip_runtime_names, RTG_HIP_RUNTIME_SLOTS, name);
}

void *rtg_hip_slot_new(const char *name, void *orig, bool record) {
  if (nstubs >= RTG_TRAMP_STUBS) return NULL;
  /* whether it returns hipError_t is known by name, from either table */
  int i = find_name(name), j = find_in(rtg_hip_compiler_names, RTG_HIP_COMPILER_SLOTS, name);
  uint8_t noerr = i >= 0 ? rtg_hip_runtime_noerr[i] : j >= 0 ? rtg_hip_compiler_noerr[j] : 1;
  return slot_new(name, orig, NULL, noerr, record);
}

/* Wrap the n slots of one table; names[i] for i < nnames. */
static unsigned wrap(void **fns, size_t n, const char *const *names, const unsigned char *noerr,
                     size_t nnames, const char *tname) {
  unsigned kept = 0;
  for (size_t i = 0; i < n; i++) {
    void *orig = __atomic_load_n(&fns[i], __ATOMIC_RELAXED);
    if (!orig) continue; /* a retired member HIP keeps NULL */
    const char *name;
    if (i < nnames) {
      name = names[i];
    } else {
      if (nstubs >= RTG_TRAMP_STUBS) break;
      snprintf(extra_names[nstubs], sizeof extra_names[0], "%s_%zu", tname, i);
      name = extra_names[nstubs];
    }
    bool keep = rtg_cfg.hip_api && rtg_hip_name_traced(name);
    rtg_log(2, "HIP API %s %s", keep ? "keep" : "skip", name);
    if (!keep) continue;
    if (nstubs >= RTG_TRAMP_STUBS) {
      rtg_log(0, "HIP dispatch table: more than %d functions; %s and later not traced",
              RTG_TRAMP_STUBS, name);
      break;
    }
    /* one aligned pointer store: a thread calling meanwhile sees either */
    __atomic_store_n(&fns[i], slot_new(name, orig, &fns[i], i < nnames ? noerr[i] : 0, true),
                     __ATOMIC_RELEASE);
    kept++;
  }
  return kept;
}

/* A table is {u64 size in bytes; pointers}: how many pointers, or 0 when
 * the size is not plausible. */
static size_t table_slots(const void *table) {
  uint64_t size;
  memcpy(&size, table, sizeof size);
  if (size < 16 || size > 65536 || size % 8) return 0;
  return (size_t)(size - 8) / 8;
}

static void take_runtime(void *table, uint64_t version, uint64_t instance) {
  size_t n = table_slots(table);
  if (!n) {
    rtg_log(0, "HIP dispatch table with an implausible size; HIP calls not traced this way");
    return;
  }
  void **fns = (void **)((char *)table + 8);
  if (!runtime_tables) {
    int a = find_name("hipKernelNameRefByPtr"), b = find_name("hipKernelNameRef");
    if (a >= 0 && (size_t)a < n) *(void **)&name_by_ptr = fns[a];
    if (b >= 0 && (size_t)b < n) *(void **)&name_ref = fns[b];
    /* HIP's own lookups, called directly (not through the table: untraced) */
    rtg_hip.kernel_name_by_ptr = name_by_ptr;
    rtg_hip.kernel_name_ref = name_ref;
  }
  unsigned kept = wrap(fns, n, rtg_hip_runtime_names, rtg_hip_runtime_noerr, RTG_HIP_RUNTIME_SLOTS,
                       "HipDispatchTable");
  if (!runtime_tables && rtg_cfg.hip_api) {
    static const char *const keywords[] = {"all", NULL};
    size_t known = n < RTG_HIP_RUNTIME_SLOTS ? n : RTG_HIP_RUNTIME_SLOTS;
    rtg_filter_check("RTG_HIP_API_FILTER", rtg_cfg.hip_filter.spec, "HIP", rtg_hip_runtime_names,
                     known, keywords);
    rtg_filter_check("RTG_HIP_API_FILTER_OUT", rtg_cfg.hip_filter_out.spec, "HIP",
                     rtg_hip_runtime_names, known, keywords);
  }
  int step = -1;
  for (size_t s = 0; s < sizeof rtg_hip_step_slots / sizeof *rtg_hip_step_slots; s++)
    if (n >= rtg_hip_step_slots[s]) step = (int)s;
  runtime_tables++;
  snprintf(described, sizeof described,
           "HipDispatchTable of %zu functions (step %d%s), version %llu, instance %llu, %u traced",
           n, step, n > RTG_HIP_RUNTIME_SLOTS ? ", newer than our names" : "",
           (unsigned long long)version, (unsigned long long)instance, kept);
  rtg_hip.path = "dispatch-table";
}

void rtg_hip_dispatch_table_take(const char *name, uint64_t version, uint64_t instance,
                                 void *table) {
  if (stopped) return;
  if (!strcmp(name, "hip")) {
    take_runtime(table, version, instance);
    rtg_log(1, "HIP API tracing: %s", described);
  } else if (!strcmp(name, "hip_compiler")) {
    size_t n = table_slots(table);
    unsigned kept =
        wrap((void **)((char *)table + 8), n, rtg_hip_compiler_names, rtg_hip_compiler_noerr,
             RTG_HIP_COMPILER_SLOTS, "HipCompilerDispatchTable");
    rtg_log(1, "HIP API tracing: HipCompilerDispatchTable of %zu functions, %u traced", n, kept);
  }
}

void rtg_hip_dispatch_table_stop(void) {
  /* Calls in flight still return through the trampoline (we stay mapped);
   * new calls go straight to HIP, or through it untraced (GOT slots). */
  stopped = 1;
  for (unsigned i = 0; i < nstubs; i++)
    if (slots[i].entry &&
        __atomic_load_n(slots[i].entry, __ATOMIC_RELAXED) == rtg_hip_tramp_stub(i))
      __atomic_store_n(slots[i].entry, slots[i].orig, __ATOMIC_RELEASE);
}
