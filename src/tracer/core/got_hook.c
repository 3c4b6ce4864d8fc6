/* Redirect calls to a few libc functions (exec*, _exit) made from any
 * loaded object, or made by one library only (HIP's mmap and munmap), to
 * the tracer's wrappers, by rewriting the objects' GOT slots.
 *
 * Why not symbol interposition: ROCR dlopen's this library during hsa_init,
 * long after the program's references were bound, and it is not preloaded,
 * so an exported execve() here would never be called.  What every caller
 * does go through is its own GOT: a PLT call reads the JUMP_SLOT entry, a
 * -fno-plt call or a taken address the GLOB_DAT entry.  Both are listed in
 * the object's dynamic relocations (DT_JMPREL, DT_RELA) with the symbol's
 * name, so each object is patched by walking those relocations once.
 *
 * Objects loaded later are patched by rtg_got_rescan(), which the writer
 * thread calls on each wake-up (every 50 ms at most): it rescans only when
 * the loader's count of loaded objects (dlpi_adds) changed, or an object
 * waits.  A new object is patched on the rescan after the one that first
 * saw it: dl_iterate_phdr lists an object as soon as dlopen adds it, while
 * dlopen (on another thread) may still be relocating it and then makes its
 * RELRO read-only; a slot written meanwhile would be overwritten, or the
 * write fault on a page made read-only under it.  dlopen itself
 * is not wrapped: glibc resolves a dlopen'ed name against the *caller's*
 * DT_RUNPATH (from the return address), which a wrapper would change.
 *
 * Slots inside PT_GNU_RELRO (read-only after relocation, or with -z now)
 * are made writable for the one store and read-only again.  A slot that
 * already holds the wrapper is left alone, so rescans are idempotent. */
#define _GNU_SOURCE
#include "got_hook.h"

#include <elf.h>
#include <link.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if defined(__x86_64__)
#define R_JUMP_SLOT R_X86_64_JUMP_SLOT
#define R_GLOB_DAT R_X86_64_GLOB_DAT
#elif defined(__aarch64__)
#define R_JUMP_SLOT R_AARCH64_JUMP_SLOT
#define R_GLOB_DAT R_AARCH64_GLOB_DAT
#endif

static const rtg_got_hook *hooks;
static int n_hooks;
/* The matchers of rtg_got_install_matching, one per wing (HIP, MPI). */
enum { MATCHERS_MAX = 4 };
typedef struct matcher {
  void *(*match)(const char *name);
  const void *skip;
} matcher;
static matcher matchers[MATCHERS_MAX];
static int nmatchers;
/* The hooks of rtg_got_install_in, each for one library's objects. */
enum { SCOPED_MAX = 2 };
typedef struct scoped {
  const char *prefix;
  const rtg_got_hook *hooks;
  int n;
} scoped;
static scoped scopeds[SCOPED_MAX];
static int nscopeds;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static unsigned long long seen_adds;
static int patched; /* slots written so far (for the verbose log) */

/* The objects seen by rescans: waiting for the next one, or patched. */
enum { OBJS_MAX = 4096, SEEN = 1, DONE = 2 };
typedef struct obj {
  uintptr_t addr;
  const void *phdr, *name; /* with addr: an object loaded again elsewhere differs */
  int state;
} obj;
static obj objs[OBJS_MAX];
static int nobjs, waiting;

/* The rescans' state of info's object, or NULL when the table is full
 * (then it is patched at once, as before). */
static obj *obj_of(const struct dl_phdr_info *info) {
  for (int i = 0; i < nobjs; i++)
    if (objs[i].addr == info->dlpi_addr && objs[i].phdr == info->dlpi_phdr &&
        objs[i].name == info->dlpi_name)
      return &objs[i];
  if (nobjs == OBJS_MAX) return NULL;
  objs[nobjs] = (obj){info->dlpi_addr, info->dlpi_phdr, info->dlpi_name, 0};
  return &objs[nobjs++];
}

/* d_ptr values: glibc relocates them in place on most targets, the vDSO's
 * are raw offsets.  An address below the load bias cannot be relocated. */
static uintptr_t dyn_addr(ElfW(Addr) base, ElfW(Addr) p) {
  return p < base ? base + p : p;
}

static bool contains(const struct dl_phdr_info *info, const void *addr) {
  uintptr_t a = (uintptr_t)addr;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
    if (ph->p_type == PT_LOAD && a >= lo && a < lo + ph->p_memsz) return true;
  }
  return false;
}

typedef struct relro {
  uintptr_t lo, hi; /* whole pages the loader made read-only */
} relro;

static void store_slot(void **slot, void *fn, const relro *ro) {
  if (*slot == fn) return;
  uintptr_t page = (uintptr_t)slot & ~((uintptr_t)sysconf(_SC_PAGESIZE) - 1);
  bool ro_page = page >= ro->lo && page < ro->hi;
  if (ro_page && mprotect((void *)page, (size_t)sysconf(_SC_PAGESIZE), PROT_READ | PROT_WRITE))
    return;
  __atomic_store_n(slot, fn, __ATOMIC_RELEASE);
  patched++;
  if (ro_page) mprotect((void *)page, (size_t)sysconf(_SC_PAGESIZE), PROT_READ);
}

/* Is info's object one of scopeds[s]'s library? */
static bool in_scope(const struct dl_phdr_info *info, int s) {
  const char *path = info->dlpi_name, *base = path ? strrchr(path, '/') : NULL;
  base = base ? base + 1 : path;
  return base && !strncmp(base, scopeds[s].prefix, strlen(scopeds[s].prefix));
}

/* The hook named name among n, or NULL. */
static void *hook_named(const rtg_got_hook *h, int n, const char *name) {
  for (int i = 0; i < n; i++)
    if (name[0] == h[i].name[0] && !strcmp(name, h[i].name)) return h[i].wrapper;
  return NULL;
}

static void patch_relas(ElfW(Addr) base, const ElfW(Rela) * r, size_t bytes,
                        const ElfW(Sym) * symtab, const char *strtab, size_t strsz, const relro *ro,
                        unsigned match, const scoped *sc) {
  for (size_t i = 0; i < bytes / sizeof *r; i++) {
    unsigned type = (unsigned)ELF64_R_TYPE(r[i].r_info);
    if (type != R_JUMP_SLOT && type != R_GLOB_DAT) continue;
    size_t name_off = symtab[ELF64_R_SYM(r[i].r_info)].st_name;
    if (!name_off || name_off >= strsz) continue;
    const char *name = strtab + name_off;
    void *w = hook_named(hooks, n_hooks, name);
    if (w) store_slot((void **)(base + r[i].r_offset), w, ro);
    w = sc ? hook_named(sc->hooks, sc->n, name) : NULL;
    if (w) store_slot((void **)(base + r[i].r_offset), w, ro);
    for (int m = 0; m < nmatchers; m++) {
      void *w = match >> m & 1 ? matchers[m].match(name) : NULL;
      if (w) {
        store_slot((void **)(base + r[i].r_offset), w, ro);
        break;
      }
    }
  }
}

/* data: NULL to patch every object (an install), else a rescan's: only
 * objects an earlier rescan saw. */
static int patch_object(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  __atomic_store_n(&seen_adds, info->dlpi_adds, __ATOMIC_RELAXED);
  obj *o = obj_of(info);
  if (data && o && o->state != SEEN) {
    if (!o->state) o->state = SEEN, waiting++;
    return 0; /* new, or patched already */
  }
  if (o) waiting -= o->state == SEEN, o->state = DONE;
  if (contains(info, (const void *)&contains)) return 0; /* ours go to the real functions */
  unsigned match = 0; /* bit m: matchers[m] patches this object */
  for (int m = 0; m < nmatchers; m++)
    if (!contains(info, matchers[m].skip)) match |= 1u << m;
  const scoped *sc = NULL; /* the one set of scoped hooks for this object */
  for (int s = 0; s < nscopeds && !sc; s++)
    if (in_scope(info, s)) sc = &scopeds[s];
  const ElfW(Dyn) *dyn = NULL;
  relro ro = {0, 0};
  uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE);
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type == PT_DYNAMIC) dyn = (const ElfW(Dyn) *)(info->dlpi_addr + ph->p_vaddr);
    if (ph->p_type == PT_GNU_RELRO) { /* the loader rounds both ends down */
      ro.lo = (info->dlpi_addr + ph->p_vaddr) & ~(pg - 1);
      ro.hi = (info->dlpi_addr + ph->p_vaddr + ph->p_memsz) & ~(pg - 1);
    }
  }
  if (!dyn) return 0;
  ElfW(Addr) base = info->dlpi_addr;
  const ElfW(Sym) *symtab = NULL;
  const char *strtab = NULL;
  size_t strsz = 0, pltsz = 0, relasz = 0;
  const ElfW(Rela) *jmprel = NULL, *rela = NULL;
  bool plt_is_rela = true;
  for (const ElfW(Dyn) *d = dyn; d->d_tag != DT_NULL; d++) {
    switch (d->d_tag) {
    case DT_SYMTAB:
      symtab = (const ElfW(Sym) *)dyn_addr(base, d->d_un.d_ptr);
      break;
    case DT_STRTAB:
      strtab = (const char *)dyn_addr(base, d->d_un.d_ptr);
      break;
    case DT_STRSZ:
      strsz = d->d_un.d_val;
      break;
    case DT_JMPREL:
      jmprel = (const ElfW(Rela) *)dyn_addr(base, d->d_un.d_ptr);
      break;
    case DT_PLTRELSZ:
      pltsz = d->d_un.d_val;
      break;
    case DT_PLTREL:
      plt_is_rela = d->d_un.d_val == DT_RELA;
      break;
    case DT_RELA:
      rela = (const ElfW(Rela) *)dyn_addr(base, d->d_un.d_ptr);
      break;
    case DT_RELASZ:
      relasz = d->d_un.d_val;
      break;
    default:
      break;
    }
  }
  if (!symtab || !strtab) return 0;
  if (jmprel && plt_is_rela)
    patch_relas(base, jmprel, pltsz, symtab, strtab, strsz, &ro, match, sc);
  if (rela) patch_relas(base, rela, relasz, symtab, strtab, strsz, &ro, match, sc);
  return 0;
}

static int read_adds(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  *(unsigned long long *)data = info->dlpi_adds;
  return 1; /* the first object is enough */
}

/* fork child: the lock may have been held by a thread the child lacks */
void rtg_got_after_fork(void) {
  pthread_mutex_init(&mu, NULL);
}

int rtg_got_install(const rtg_got_hook *h, int n) {
#if defined(R_JUMP_SLOT)
  pthread_mutex_lock(&mu);
  hooks = h, n_hooks = n;
  dl_iterate_phdr(patch_object, NULL);
  int r = patched;
  pthread_mutex_unlock(&mu);
  return r;
#else
  (void)h, (void)n;
  return 0;
#endif
}

int rtg_got_install_matching(void *(*match)(const char *name), const void *skip) {
#if defined(R_JUMP_SLOT)
  pthread_mutex_lock(&mu);
  int before = patched;
  int m = 0;
  while (m < nmatchers && matchers[m].match != match) m++;
  if (m == MATCHERS_MAX) {
    pthread_mutex_unlock(&mu);
    return 0;
  }
  matchers[m] = (matcher){match, skip};
  if (m == nmatchers) __atomic_store_n(&nmatchers, m + 1, __ATOMIC_RELEASE);
  dl_iterate_phdr(patch_object, NULL);
  int r = patched - before;
  pthread_mutex_unlock(&mu);
  return r;
#else
  (void)match, (void)skip;
  return 0;
#endif
}

int rtg_got_install_in(const char *prefix, const rtg_got_hook *h, int n) {
#if defined(R_JUMP_SLOT)
  pthread_mutex_lock(&mu);
  int before = patched;
  int s = 0;
  while (s < nscopeds && strcmp(scopeds[s].prefix, prefix)) s++;
  if (s == SCOPED_MAX) {
    pthread_mutex_unlock(&mu);
    return 0;
  }
  scopeds[s] = (scoped){prefix, h, n};
  if (s == nscopeds) __atomic_store_n(&nscopeds, s + 1, __ATOMIC_RELEASE);
  dl_iterate_phdr(patch_object, NULL);
  int r = patched - before;
  pthread_mutex_unlock(&mu);
  return r;
#else
  (void)prefix, (void)h, (void)n;
  return 0;
#endif
}

void rtg_got_rescan(void) {
  if (!n_hooks && !__atomic_load_n(&nmatchers, __ATOMIC_ACQUIRE) &&
      !__atomic_load_n(&nscopeds, __ATOMIC_ACQUIRE))
    return;
  unsigned long long adds = 0;
  dl_iterate_phdr(read_adds, &adds);
  if (adds == __atomic_load_n(&seen_adds, __ATOMIC_RELAXED) &&
      !__atomic_load_n(&waiting, __ATOMIC_RELAXED))
    return;
  pthread_mutex_lock(&mu);
  dl_iterate_phdr(patch_object, &mu /* a rescan */);
  pthread_mutex_unlock(&mu);
}
