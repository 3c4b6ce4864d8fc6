/* Host call stacks of selected API calls (RTG_BACKTRACE).
 *
 *   RTG_BACKTRACE=SUBSTR[,SUBSTR...][:MIN_NS]
 * selects the calls whose function name contains one of the substrings
 * ("all" selects every traced call) and, with :MIN_NS, only those that took
 * at least MIN_NS nanoseconds.  Example: RTG_BACKTRACE=hipMemcpy,hipMalloc:50000
 *
 * Such a call's record carries stack:ID; the first time a stack is seen an
 * "RTG: ... stack id:ID pcs:0xA,0xB,..." record lists its return addresses,
 * innermost first.  Identical stacks share one id.  At process end every
 * distinct address is symbolized once into an "RTG: ... symbol" record
 * (function, offset, module), so the hot path only walks the stack; what
 * dladdr cannot name (static functions) is looked up in the module's ELF
 * .symtab (backtrace_elf.c).  C++ names are demangled by rtg_demangle; one
 * it does not understand stays mangled.
 *
 * libunwind (unw_backtrace, libunwind.so.8) is looked up at run time, with
 * glibc's backtrace() as the fallback, so the tracer needs neither at link
 * time.  Tables are fixed-size and lock-free: insertions use CAS, a full
 * table stops recording new stacks/addresses (counted in the log). */
#define _GNU_SOURCE
#include "backtrace.h"
#include "backtrace_elf.h"
#include "demangle.h"

#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <link.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FRAMES 48
#define MAX_SUBSTR 16
#define STACK_SLOTS 4096 /* distinct stacks */
#define ADDR_SLOTS 65536 /* distinct return addresses */

static char spec_buf[1024];
static const char *substr[MAX_SUBSTR];
static int nsubstr;
static bool select_all;
static uint64_t min_ns;
static int (*unwind)(void **, int);
static uintptr_t self_lo, self_hi; /* our own code: frames left out */

static int find_self(struct dl_phdr_info *info, size_t size, void *arg) {
  uintptr_t base = (uintptr_t)arg;
  if (info->dlpi_addr != base) return 0;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X)) continue;
    uintptr_t lo = base + ph->p_vaddr, hi = lo + ph->p_memsz;
    if (!self_lo || lo < self_lo) self_lo = lo;
    if (hi > self_hi) self_hi = hi;
  }
  return 1;
}

static _Atomic uint64_t stack_hash[STACK_SLOTS];
static _Atomic uint64_t stack_ids;
static uint64_t stack_id[STACK_SLOTS];
static _Atomic uintptr_t addrs[ADDR_SLOTS];
static _Atomic uint64_t dropped;

bool rtg_bt_setup(const char *spec) {
  nsubstr = 0;
  select_all = false;
  min_ns = 0;
  if (!spec || !*spec) return false;
  size_t n = strlen(spec);
  if (n >= sizeof spec_buf) n = sizeof spec_buf - 1;
  memcpy(spec_buf, spec, n);
  spec_buf[n] = 0;
  char *colon = strrchr(spec_buf, ':');
  if (colon) {
    /* digits only: strtoull alone would take "xyz" as 0 and "-1" as the
     * largest value, silently */
    *colon = 0;
    const char *v = colon + 1;
    char *end = NULL;
    errno = 0;
    if (*v >= '0' && *v <= '9') min_ns = strtoull(v, &end, 10);
    if (*v && (!end || *end || errno == ERANGE)) {
      rtg_log(0,
              "cannot understand RTG_BACKTRACE=%s (expected SUBSTR[,SUBSTR...][:MIN_NS], MIN_NS a "
              "number of nanoseconds); using no minimum duration",
              spec);
      min_ns = 0;
    }
  }
  for (char *tok = strtok(spec_buf, ","); tok && nsubstr < MAX_SUBSTR; tok = strtok(NULL, ",")) {
    if (!strcmp(tok, "all"))
      select_all = true;
    else if (*tok)
      substr[nsubstr++] = tok;
  }
  if (!select_all && !nsubstr) return false;
  void *h = dlopen("libunwind.so.8", RTLD_LAZY | RTLD_LOCAL);
  if (h) *(void **)&unwind = dlsym(h, "unw_backtrace");
  if (!unwind) unwind = backtrace;
  Dl_info self;
  if (dladdr((void *)rtg_bt_setup, &self) && self.dli_fbase)
    dl_iterate_phdr(find_self, self.dli_fbase);
  rtg_log(1, "backtraces: %s%s, min %llu ns, via %s", select_all ? "all" : "",
          select_all ? "" : spec, (unsigned long long)min_ns,
          unwind == backtrace ? "glibc backtrace" : "libunwind");
  return true;
}

bool rtg_bt_selects(const char *name) {
  if (select_all) return true;
  for (int i = 0; i < nsubstr; i++)
    if (strstr(name, substr[i])) return true;
  return false;
}

bool rtg_bt_long_enough(uint64_t dur_ns) {
  return dur_ns >= min_ns;
}

static uint64_t mix(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  return h;
}

static void remember_addr(uintptr_t a) {
  size_t i = mix(a) & (ADDR_SLOTS - 1);
  for (int probe = 0; probe < 64; probe++, i = (i + 1) & (ADDR_SLOTS - 1)) {
    uintptr_t cur = atomic_load_explicit(&addrs[i], memory_order_relaxed);
    if (cur == a) return;
    if (!cur) {
      uintptr_t z = 0;
      if (atomic_compare_exchange_strong(&addrs[i], &z, a) || z == a) return;
    }
  }
  atomic_fetch_add(&dropped, 1);
}

static void put_hex(char **p, char *end, uint64_t v) {
  char t[20];
  int n = 0;
  do t[n++] = "0123456789abcdef"[v & 15];
  while ((v >>= 4));
  if (*p + n + 2 >= end) return;
  *(*p)++ = '0';
  *(*p)++ = 'x';
  while (n) *(*p)++ = t[--n];
}

uint64_t rtg_bt_capture(int skip) {
  if (!unwind) return 0;
  void *pcs[MAX_FRAMES + 8];
  int n = unwind(pcs, MAX_FRAMES + 8);
  /* leave out the tracer's own frames (the innermost ones); `skip` when
   * the tracer's extent is unknown */
  int k = 0;
  if (self_hi) {
    while (k < n && (uintptr_t)pcs[k] >= self_lo && (uintptr_t)pcs[k] < self_hi) k++;
  } else {
    k = skip;
  }
  if (n <= k) return 0;
  void **f = pcs + k;
  n -= k;
  if (n > MAX_FRAMES) n = MAX_FRAMES;
  uint64_t h = 0x9e3779b97f4a7c15ull ^ (uint64_t)n;
  for (int i = 0; i < n; i++) h = mix(h ^ (uint64_t)(uintptr_t)f[i]) + (uint64_t)i;
  if (!h) h = 1;
  /* a stack seen before keeps its id and is not written again */
  size_t slot = h & (STACK_SLOTS - 1);
  for (int probe = 0; probe < 64; probe++, slot = (slot + 1) & (STACK_SLOTS - 1)) {
    uint64_t cur = atomic_load_explicit(&stack_hash[slot], memory_order_acquire);
    if (cur == h) {
      /* the writer publishes the id right after its CAS */
      uint64_t id;
      while (!(id = __atomic_load_n(&stack_id[slot], __ATOMIC_ACQUIRE))) {
      }
      return id;
    }
    if (cur) continue;
    uint64_t z = 0;
    if (!atomic_compare_exchange_strong(&stack_hash[slot], &z, h)) {
      if (z == h) {
        uint64_t id;
        while (!(id = __atomic_load_n(&stack_id[slot], __ATOMIC_ACQUIRE))) {
        }
        return id;
      }
      continue;
    }
    uint64_t id = atomic_fetch_add(&stack_ids, 1) + 1;
    char buf[MAX_FRAMES * 19 + 8], *p = buf, *end = buf + sizeof buf;
    for (int i = 0; i < n; i++) {
      if (i) *p++ = ',';
      put_hex(&p, end, (uint64_t)(uintptr_t)f[i]);
      remember_addr((uintptr_t)f[i]);
    }
    *p = 0;
    rtg_record r;
    rtg_record_init(&r, RTG_KIND_STACK, rtg_pid(), rtg_tid());
    r.u.STACK.id = id;
    r.u.STACK.pcs = buf;
    rtg_emit(&r);
    __atomic_store_n(&stack_id[slot], id, __ATOMIC_RELEASE);
    return id;
  }
  atomic_fetch_add(&dropped, 1);
  return 0;
}

void rtg_bt_symbolize(void) {
  if (!unwind) return;
  unsigned written = 0;
  for (size_t i = 0; i < ADDR_SLOTS; i++) {
    uintptr_t a = atomic_load(&addrs[i]);
    if (!a) continue;
    Dl_info info;
    memset(&info, 0, sizeof info);
    /* a return address points after the call: look up the call itself */
    int ok = dladdr((void *)(a - 1), &info);
    rtg_record r;
    rtg_record_init(&r, RTG_KIND_SYMBOL, rtg_pid(), rtg_tid());
    r.u.SYMBOL.addr = a;
    char *dem = NULL;
    if (ok && info.dli_sname) {
      dem = rtg_demangle(info.dli_sname, strlen(info.dli_sname));
      r.u.SYMBOL.name = dem ? dem : info.dli_sname;
      RTG_SET(&r, SYMBOL, offset, a - (uintptr_t)info.dli_saddr);
    } else {
      /* not exported: the module's .symtab may still name it */
      uint64_t off = 0;
      const char *sn =
          ok ? rtg_bt_symtab_lookup(info.dli_fname, info.dli_fbase, a - 1, &off) : NULL;
      if (sn) {
        dem = rtg_demangle(sn, strlen(sn));
        r.u.SYMBOL.name = dem ? dem : sn;
        RTG_SET(&r, SYMBOL, offset, off + 1);
      } else {
        r.u.SYMBOL.name = "??";
        if (ok && info.dli_fbase) RTG_SET(&r, SYMBOL, offset, a - (uintptr_t)info.dli_fbase);
      }
    }
    if (ok && info.dli_fname) RTG_SET(&r, SYMBOL, module, info.dli_fname);
    rtg_emit(&r);
    free(dem);
    written++;
  }
  rtg_bt_symtab_free();
  if (atomic_load(&dropped))
    rtg_log(0, "backtraces: %llu stacks or addresses did not fit the tables",
            (unsigned long long)atomic_load(&dropped));
  rtg_log(1, "backtraces: %llu stacks, %u addresses", (unsigned long long)atomic_load(&stack_ids),
          written);
}
