/* Kernel names and resources: when the application freezes an executable,
 * iterate its kernel symbols and remember kernel_object -> name, kernel id
 * and resources.  The symbol name is not NUL-terminated and ends in ".kd"
 * for code object v3+; the kernel_object points at the kernel descriptor.
 * Names are demangled with rtg_demangle (the text llvm-cxxfilt shows; the
 * tracer does not link libstdc++); a name it does not understand stays
 * mangled.
 *
 * Each kernel object gets an id (1.. in the process) and one KERNEL record:
 * the static group, private and kernarg segment sizes from the symbol's
 * info (what the runtime read from the code object's metadata), and the
 * registers decoded from a host copy of the kernel descriptor
 * (hsa_ven_amd_loader_query_host_address; kernel_res.c).  What cannot be
 * read is left out of the record.  The record is emitted at the freeze and
 * written by the writer once: the first dispatch of the kernel writes it
 * first where the freezing thread's entry has not been written yet, so a
 * reader finds it before any dispatch that names it.  All of this is done
 * once per kernel object, never per dispatch. */
#include "demangle.h"
#include "gpu_op.h"
#include "kernel_res.h"

#include <hsa/hsa_ven_amd_loader.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct rtg_kernel_info {
  _Atomic int written; /* its record is in the trace file */
  rtg_record rec;      /* strings kept until exit */
};

typedef struct kname {
  uint64_t kobj;
  rtg_kernel_name n;
} kname;

static kname *table;
static size_t cap, count;
static pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;
static uint64_t next_id; /* under lock */

static size_t slot(uint64_t k) {
  return (size_t)((k >> 4) * 0x9E3779B97F4A7C15ull);
}

static void insert(uint64_t kobj, rtg_kernel_name n) {
  if ((count + 1) * 2 > cap) {
    size_t ncap = cap ? cap * 2 : 256;
    kname *nt = calloc(ncap, sizeof *nt);
    if (!nt) return;
    for (size_t i = 0; i < cap; i++) {
      if (!table[i].kobj) continue;
      size_t j = slot(table[i].kobj) & (ncap - 1);
      while (nt[j].kobj) j = (j + 1) & (ncap - 1);
      nt[j] = table[i];
    }
    free(table); /* names are kept: other threads may hold them */
    table = nt;
    cap = ncap;
  }
  size_t j = slot(kobj) & (cap - 1);
  while (table[j].kobj && table[j].kobj != kobj) j = (j + 1) & (cap - 1);
  if (!table[j].kobj) count++;
  table[j].kobj = kobj;
  table[j].n = n;
}

rtg_kernel_name rtg_kernel_name_of(uint64_t kobj) {
  rtg_kernel_name n = {"unknown", NULL, "unknown", NULL, 0};
  pthread_rwlock_rdlock(&lock);
  if (cap) {
    size_t j = slot(kobj) & (cap - 1);
    while (table[j].kobj && table[j].kobj != kobj) j = (j + 1) & (cap - 1);
    if (table[j].kobj) n = table[j].n;
  }
  pthread_rwlock_unlock(&lock);
  return n;
}

size_t rtg_kernel_info_format(char *out, size_t cap, rtg_kernel_info *info) {
  /* (a plain load first: after the first dispatch, no locked op per record) */
  if (atomic_load_explicit(&info->written, memory_order_relaxed) ||
      atomic_exchange(&info->written, 1))
    return 0;
  return rtg_entry_record(out, cap, &info->rec);
}

static size_t format_kernel(char *out, size_t cap, const void *payload, size_t len, uint32_t pid,
                            uint64_t tid) {
  (void)pid, (void)tid;
  rtg_kernel_info *info;
  if (len != sizeof info) return 0;
  memcpy(&info, payload, sizeof info);
  return rtg_kernel_info_format(out, cap, info);
}

void rtg_kernel_names_after_fork(void) {
  for (size_t i = 0; i < cap; i++)
    if (table[i].kobj && table[i].n.info) {
      atomic_store(&table[i].n.info->written, 0);
      table[i].n.info->rec.pid = rtg_pid();
      table[i].n.info->rec.tid = rtg_tid();
    }
}

/* The loader extension's query_host_address, NULL where the runtime has
 * none. */
static hsa_status_t (*query_host_address)(const void *device, const void **host);
static pthread_once_t loader_once = PTHREAD_ONCE_INIT;

static void loader_init(void) {
  hsa_ven_amd_loader_1_00_pfn_t t;
  memset(&t, 0, sizeof t);
  if (rtg_real.hsa_system_get_major_extension_table &&
      rtg_real.hsa_system_get_major_extension_table(HSA_EXTENSION_AMD_LOADER, 1, sizeof t, &t) ==
          HSA_STATUS_SUCCESS)
    query_host_address = t.hsa_ven_amd_loader_query_host_address;
}

/* The resources of a kernel symbol into its KERNEL record r: whatever of
 * them the runtime answers. */
static void read_resources(hsa_executable_symbol_t sym, uint64_t kobj, rtg_record *r, char *arch,
                           size_t arch_cap) {
  uint32_t v = 0;
  hsa_agent_t agent = {0};
  if (rtg_real.hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_AGENT, &agent) ==
          HSA_STATUS_SUCCESS &&
      agent.handle) {
    rtg_agent *a = rtg_agent_find(agent);
    if (a) RTG_SET(r, KERNEL, agent, a->index);
    char name[64] = "";
    if (rtg_real.hsa_agent_get_info(agent, HSA_AGENT_INFO_NAME, name) == HSA_STATUS_SUCCESS) {
      name[sizeof name - 1] = 0;
      /* a word: the name up to any space or colon ("gfx90a:xnack-") */
      size_t n = strcspn(name, " :");
      if (n && n < arch_cap) {
        memcpy(arch, name, n);
        arch[n] = 0;
      }
    }
  }
  if (rtg_real.hsa_executable_symbol_get_info(
          sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE, &v) == HSA_STATUS_SUCCESS)
    RTG_SET(r, KERNEL, lds, v);
  if (rtg_real.hsa_executable_symbol_get_info(
          sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE, &v) == HSA_STATUS_SUCCESS)
    RTG_SET(r, KERNEL, scratch, v);
  if (rtg_real.hsa_executable_symbol_get_info(
          sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, &v) == HSA_STATUS_SUCCESS)
    RTG_SET(r, KERNEL, kernarg, v);
  pthread_once(&loader_once, loader_init);
  const void *host = NULL;
  if (!query_host_address ||
      query_host_address((const void *)(uintptr_t)kobj, &host) != HSA_STATUS_SUCCESS || !host)
    return;
  rtg_kernel_regs regs;
  if (!arch[0] || !rtg_kernel_regs_decode(arch, rtg_kernel_desc_read(host), &regs)) return;
  RTG_SET(r, KERNEL, arch_vgpr, regs.arch_vgpr);
  RTG_SET(r, KERNEL, accum_vgpr, regs.accum_vgpr);
  RTG_SET(r, KERNEL, sgpr, regs.sgpr);
  RTG_SET(r, KERNEL, wavefront, regs.wavefront);
}

static hsa_status_t on_symbol(hsa_executable_t exec, hsa_executable_symbol_t sym, void *data) {
  (void)exec, (void)data;
  hsa_symbol_kind_t kind;
  if (rtg_real.hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_TYPE, &kind) !=
          HSA_STATUS_SUCCESS ||
      kind != HSA_SYMBOL_KIND_KERNEL)
    return HSA_STATUS_SUCCESS;
  uint64_t kobj = 0;
  uint32_t len = 0;
  rtg_real.hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &kobj);
  rtg_real.hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH, &len);
  if (!kobj || !len || len > 65536) return HSA_STATUS_SUCCESS;
  char *symbol = calloc(1, len + 1);
  if (!symbol) return HSA_STATUS_SUCCESS;
  rtg_real.hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_NAME, symbol);
  symbol[len] = 0;
  rtg_kernel_name n = {symbol, NULL, symbol, NULL, 0};
  size_t sl = strlen(symbol);
  if (sl > 3 && !strcmp(symbol + sl - 3, ".kd")) {
    char *m = strndup(symbol, sl - 3);
    if (m) n.mangled = m;
  }
  char *d = rtg_demangle(n.mangled, strlen(n.mangled));
  if (d) n.demangled = d;
  rtg_kernel_info *info = rtg_cfg.hcc_profile == 2 ? NULL : calloc(1, sizeof *info);
  char arch[32] = "";
  if (info) {
    rtg_record *r = &info->rec;
    rtg_record_init(r, RTG_KIND_KERNEL, rtg_pid(), rtg_tid());
    r->u.KERNEL.object = kobj;
    r->u.KERNEL.name = n.mangled;
    read_resources(sym, kobj, r, arch, sizeof arch);
    if (arch[0]) {
      char *a = strdup(arch);
      if (a) RTG_SET(r, KERNEL, arch, a);
    }
  }
  pthread_rwlock_wrlock(&lock);
  n.id = ++next_id;
  if (info) info->rec.u.KERNEL.id = n.id, n.info = info;
  insert(kobj, n);
  pthread_rwlock_unlock(&lock);
  if (info) rtg_emit_entry(format_kernel, &info, sizeof info);
  return HSA_STATUS_SUCCESS;
}

/* Freeze first (symbols have their final addresses only then). */
static hsa_status_t hook_freeze(hsa_executable_t exec, const char *options) {
  hsa_status_t st = rtg_real.hsa_executable_freeze(exec, options);
  if (st == HSA_STATUS_SUCCESS) rtg_real.hsa_executable_iterate_symbols(exec, on_symbol, NULL);
  return st;
}

void rtg_kernel_names_init(void) {
  if (rtg_cfg.profile && rtg_real.hsa_executable_freeze && rtg_real.hsa_executable_iterate_symbols)
    rtg_impl.hsa_executable_freeze = hook_freeze;
}
