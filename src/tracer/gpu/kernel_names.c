/* Kernel names: when the application freezes an executable, iterate its
 * kernel symbols and remember kernel_object -> name.  The symbol name is
 * not NUL-terminated and ends in ".kd" for code object v3+; the
 * kernel_object points at the kernel descriptor.  Names are demangled with
 * rtg_demangle (the text llvm-cxxfilt shows; the tracer does not link
 * libstdc++); a name it does not understand stays mangled. */
#include "demangle.h"
#include "gpu_op.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct kname {
  uint64_t kobj;
  rtg_kernel_name n;
} kname;

static kname *table;
static size_t cap, count;
static pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;

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
  rtg_kernel_name n = {"unknown", NULL, "unknown"};
  pthread_rwlock_rdlock(&lock);
  if (cap) {
    size_t j = slot(kobj) & (cap - 1);
    while (table[j].kobj && table[j].kobj != kobj) j = (j + 1) & (cap - 1);
    if (table[j].kobj) n = table[j].n;
  }
  pthread_rwlock_unlock(&lock);
  return n;
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
  rtg_kernel_name n = {symbol, NULL, symbol};
  size_t sl = strlen(symbol);
  if (sl > 3 && !strcmp(symbol + sl - 3, ".kd")) {
    char *m = strndup(symbol, sl - 3);
    if (m) n.mangled = m;
  }
  char *d = rtg_demangle(n.mangled, strlen(n.mangled));
  if (d) n.demangled = d;
  pthread_rwlock_wrlock(&lock);
  insert(kobj, n);
  pthread_rwlock_unlock(&lock);
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
