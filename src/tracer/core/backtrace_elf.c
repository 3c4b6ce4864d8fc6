/* Names of functions dladdr cannot name: the static (non-exported)
 * functions of the executable and of libraries, from the ELF file's
 * .symtab (dladdr only sees .dynsym).  Read once per module at process end
 * (rtg_bt_symbolize), with pread of just the section headers, .symtab and
 * its string table; no libelf.  Every offset and size read from the file is
 * checked against the file before use: a stripped, truncated or foreign
 * file just gives no names. */
#define _GNU_SOURCE
#include "backtrace_elf.h"

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_MODULES 32
#define MAX_SYMS (8u << 20)    /* functions per module */
#define MAX_TABLE (512u << 20) /* bytes of .symtab or .strtab */

typedef struct fsym {
  uint64_t value, size;
  uint32_t name; /* offset in strtab */
} fsym;

typedef struct module {
  const void *fbase; /* dli_fbase: the key */
  uint64_t bias;     /* run-time address - file address */
  fsym *syms;        /* functions, by address */
  size_t nsyms;
  char *strtab;
  size_t strsize;
} module;

static module modules[MAX_MODULES];
static int nmodules;

static int read_at(int fd, void *buf, size_t n, uint64_t off, uint64_t fsize) {
  if (off > fsize || n > fsize - off) return -1;
  char *p = buf;
  while (n) {
    ssize_t r = pread(fd, p, n, (off_t)off);
    if (r <= 0) return -1;
    p += r, n -= (size_t)r, off += (uint64_t)r;
  }
  return 0;
}

static int by_value(const void *a, const void *b) {
  const fsym *x = a, *y = b;
  return x->value < y->value ? -1 : x->value > y->value;
}

/* Load the functions of .symtab; 0 on success. */
static int load(module *m, const char *path) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  int rc = -1;
  struct stat st;
  Elf64_Ehdr eh;
  Elf64_Shdr *sh = NULL;
  Elf64_Sym *raw = NULL;
  if (fstat(fd, &st) || st.st_size < (off_t)sizeof eh) goto out;
  uint64_t fsize = (uint64_t)st.st_size;
  if (read_at(fd, &eh, sizeof eh, 0, fsize) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
      eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB ||
      eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shnum == 0 || eh.e_shnum > 65280)
    goto out;
  /* the load bias: where the lowest PT_LOAD went (ET_EXEC: nowhere else) */
  uint64_t min_vaddr = UINT64_MAX;
  if (eh.e_phentsize == sizeof(Elf64_Phdr) && eh.e_phnum < 4096) {
    for (unsigned i = 0; i < eh.e_phnum; i++) {
      Elf64_Phdr ph;
      if (read_at(fd, &ph, sizeof ph, eh.e_phoff + (uint64_t)i * sizeof ph, fsize)) break;
      if (ph.p_type == PT_LOAD && ph.p_vaddr < min_vaddr) min_vaddr = ph.p_vaddr;
    }
  }
  if (min_vaddr == UINT64_MAX) goto out;
  uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
  m->bias = eh.e_type == ET_EXEC ? 0 : (uint64_t)(uintptr_t)m->fbase - (min_vaddr & ~(page - 1));
  size_t shbytes = (size_t)eh.e_shnum * sizeof *sh;
  sh = malloc(shbytes);
  if (!sh || read_at(fd, sh, shbytes, eh.e_shoff, fsize)) goto out;
  const Elf64_Shdr *sym = NULL;
  for (unsigned i = 0; i < eh.e_shnum; i++)
    if (sh[i].sh_type == SHT_SYMTAB) sym = &sh[i];
  if (!sym || sym->sh_entsize != sizeof(Elf64_Sym) || sym->sh_link >= eh.e_shnum ||
      sym->sh_size > MAX_TABLE)
    goto out; /* stripped */
  const Elf64_Shdr *str = &sh[sym->sh_link];
  if (str->sh_type != SHT_STRTAB || str->sh_size == 0 || str->sh_size > MAX_TABLE) goto out;
  size_t n = (size_t)(sym->sh_size / sizeof(Elf64_Sym));
  raw = malloc(n * sizeof *raw + 1);
  m->strtab = malloc((size_t)str->sh_size + 1);
  if (!raw || !m->strtab || read_at(fd, raw, n * sizeof *raw, sym->sh_offset, fsize) ||
      read_at(fd, m->strtab, (size_t)str->sh_size, str->sh_offset, fsize))
    goto out;
  m->strtab[str->sh_size] = 0; /* a name running off the end stops here */
  m->strsize = (size_t)str->sh_size;
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    if (ELF64_ST_TYPE(raw[i].st_info) == STT_FUNC && raw[i].st_shndx != SHN_UNDEF &&
        raw[i].st_value && raw[i].st_name < m->strsize)
      k++;
  if (!k || k > MAX_SYMS) goto out;
  m->syms = malloc(k * sizeof *m->syms);
  if (!m->syms) goto out;
  for (size_t i = 0; i < n; i++)
    if (ELF64_ST_TYPE(raw[i].st_info) == STT_FUNC && raw[i].st_shndx != SHN_UNDEF &&
        raw[i].st_value && raw[i].st_name < m->strsize)
      m->syms[m->nsyms++] = (fsym){raw[i].st_value, raw[i].st_size, raw[i].st_name};
  qsort(m->syms, m->nsyms, sizeof *m->syms, by_value);
  rc = 0;
out:
  if (rc) {
    free(m->syms);
    free(m->strtab);
    m->syms = NULL, m->strtab = NULL, m->nsyms = 0;
  }
  free(sh);
  free(raw);
  close(fd);
  return rc;
}

static module *find_module(const char *fname, const void *fbase) {
  for (int i = 0; i < nmodules; i++)
    if (modules[i].fbase == fbase) return &modules[i];
  if (nmodules == MAX_MODULES) return NULL;
  module *m = &modules[nmodules++];
  memset(m, 0, sizeof *m);
  m->fbase = fbase;
  /* The executable's dli_fname is argv[0]-like: read it via /proc. */
  Dl_info main_info;
  void *entry = (void *)getauxval(AT_ENTRY);
  int is_main = entry && dladdr(entry, &main_info) && main_info.dli_fbase == fbase;
  const char *path = is_main ? "/proc/self/exe" : fname;
  if (path && *path) load(m, path); /* failing: no names for this module */
  return m;
}

const char *rtg_bt_symtab_lookup(const char *fname, const void *fbase, uintptr_t addr,
                                 uint64_t *offset) {
  if (!fbase) return NULL;
  module *m = find_module(fname, fbase);
  if (!m || !m->nsyms || addr < m->bias) return NULL;
  uint64_t a = addr - m->bias;
  size_t lo = 0, hi = m->nsyms; /* last symbol with value <= a */
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (m->syms[mid].value <= a)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (!lo) return NULL;
  const fsym *s = &m->syms[lo - 1];
  /* inside it; a symbol without a size reaches to the next one */
  if (s->size ? a >= s->value + s->size : lo < m->nsyms && a >= m->syms[lo].value) return NULL;
  *offset = a - s->value;
  return m->strtab + s->name;
}

void rtg_bt_symtab_free(void) {
  for (int i = 0; i < nmodules; i++) {
    free(modules[i].syms);
    free(modules[i].strtab);
  }
  nmodules = 0;
}
