/* Managed memory whose range HIP takes from the operating system: HIP 6.4's
 * hipMallocManaged, on a GPU whose driver offers KFD's SVM API, maps the
 * range with mmap (anonymous, read-write, MAP_NORESERVE: rocclr's
 * Os::reserveMemory), then gives it SVM attributes through HSA
 * (hsa_amd_svm_attributes_set, rocclr's Device::SvmAllocInit); its hipFree
 * unmaps it with munmap (Os::releaseMemory) and makes no HSA call.  Only
 * the attributes reach the runtime's table (memory.c).
 *
 * So HIP's own calls to mmap and munmap go through wrappers here (its GOT
 * slots, core/got_hook.c; no other object's), only to learn ranges, never
 * to change a call: the arguments, the result and errno stay the
 * library's.  An mmap leaves its range as the calling thread's last one
 * (thread-local: no lock, nothing shared); an munmap that cuts into the
 * thread's last range trims it.  When SVM attributes are first set on a
 * range that starts where the thread's last mapping of HIP's does, and lies
 * inside it (memory.c asks rtg_managed_os_mark), the range becomes managed
 * memory: it enters the table of marked ranges, and the mapping's start is
 * the allocation's.  An munmap of HIP's that cuts into a marked range is
 * its free (recorded by the function memory.c gives at install).  Only
 * an anonymous private mmap at an address of the system's choosing (as
 * managed memory's) takes a time stamp; others, and munmaps, read or trim
 * the thread's last range; the table (and the clock, for munmap) is looked
 * at only while it holds a range. */
#define _GNU_SOURCE
#include "core/got_hook.h"
#include "core/spin.h"
#include "core/stamp.h"
#include "hsa_side.h"

#include <errno.h>
#include <sys/mman.h>

/* The calling thread's last mapping of HIP's, until used or unmapped. */
static __thread struct { uint64_t addr, len, t0; } last;

enum { MAX_MARKED = 1024 };
static struct { uint64_t addr, size; } marked[MAX_MARKED];
static uint32_t n_marked; /* read without the lock: 0, nothing to look for */
static rtg_spin marked_lock;
static void (*on_free)(uint64_t addr, uint64_t t0); /* memory.c's record */

/* [lo, hi) cut out of the thread's last mapping: what stays of it, when it
 * still starts where it did or starts at hi. */
static void last_cut(uint64_t lo, uint64_t hi) {
  uint64_t a = last.addr, e = last.addr + last.len;
  if (!last.len || hi <= a || lo >= e) return;
  if (lo <= a && hi >= e)
    last.len = 0;
  else if (lo <= a)
    last.addr = hi, last.len = e - hi; /* its head trimmed */
  else if (hi >= e)
    last.len = lo - a; /* its tail trimmed */
  else
    last.len = 0; /* a hole: no longer one range */
}

/* Flags of the mappings managed memory is made of: anonymous, private
 * (MAP_NORESERVE or not), at an address of the system's choosing. */
static bool may_be_managed(int flags) {
  return (flags & (MAP_ANONYMOUS | MAP_PRIVATE | MAP_SHARED | MAP_FIXED)) ==
         (MAP_ANONYMOUS | MAP_PRIVATE);
}

static void *w_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off) {
  if (!may_be_managed(flags)) {
    void *p = mmap(addr, len, prot, flags, fd, off);
    if (p != MAP_FAILED) last_cut((uint64_t)(uintptr_t)p, (uint64_t)(uintptr_t)p + len);
    return p;
  }
  uint64_t t0 = rtg_stamp();
  void *p = mmap(addr, len, prot, flags, fd, off);
  if (p != MAP_FAILED) last.addr = (uint64_t)(uintptr_t)p, last.len = len, last.t0 = t0;
  return p;
}

static int w_munmap(void *addr, size_t len) {
  bool look = __atomic_load_n(&n_marked, __ATOMIC_RELAXED) != 0;
  uint64_t t0 = look ? rtg_stamp() : 0;
  int r = munmap(addr, len);
  if (r) return r;
  uint64_t lo = (uint64_t)(uintptr_t)addr, hi = lo + len;
  last_cut(lo, hi);
  if (!look) return r;
  int saved = errno;
  for (;;) { /* each marked range it cuts into, one at a time */
    uint64_t freed = 0;
    rtg_spin_lock(&marked_lock);
    for (uint32_t i = 0; i < n_marked; i++)
      if (marked[i].addr < hi && lo < marked[i].addr + marked[i].size) {
        freed = marked[i].addr;
        marked[i] = marked[n_marked - 1];
        __atomic_store_n(&n_marked, n_marked - 1, __ATOMIC_RELAXED);
        break;
      }
    rtg_spin_unlock(&marked_lock);
    if (!freed) break;
    on_free(freed, t0);
  }
  errno = saved;
  return r;
}

uint64_t rtg_managed_os_mark(uint64_t addr, uint64_t size) {
  if (!last.len || addr != last.addr || size > last.len || !size) return 0;
  uint64_t t0 = last.t0 ? last.t0 : 1;
  last.len = 0; /* later attributes on it (hipMemAdvise) are no new memory */
  bool kept = false;
  rtg_spin_lock(&marked_lock);
  bool known = false;
  for (uint32_t i = 0; i < n_marked && !known; i++) known = marked[i].addr == addr;
  if (!known && n_marked < MAX_MARKED) {
    marked[n_marked] = (__typeof__(marked[0])){addr, size};
    __atomic_store_n(&n_marked, n_marked + 1, __ATOMIC_RELAXED);
    kept = true;
  }
  rtg_spin_unlock(&marked_lock);
  return kept ? t0 : 0;
}

void rtg_managed_os_install(void (*freed)(uint64_t addr, uint64_t t0)) {
  on_free = freed;
  static const rtg_got_hook hooks[] = {
      {"mmap", (void *)w_mmap}, {"mmap64", (void *)w_mmap}, {"munmap", (void *)w_munmap}};
  rtg_managed_os_after_fork(); /* a new trace: none marked yet */
  int slots = rtg_got_install_in("libamdhip64.so", hooks, 3);
  rtg_log(1, "managed memory: HIP's mmap and munmap watched, %d slots", slots);
}

void rtg_managed_os_after_fork(void) {
  __atomic_store_n(&n_marked, 0, __ATOMIC_RELAXED); /* the parent's file has them */
  rtg_spin_init(&marked_lock);
}
