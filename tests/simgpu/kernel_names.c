/* kernel_names.c - names the kernel behind a dispatch's kernel_object.
 *
 * ROCR passes its loader's r_debug (_amdgpu_r_debug) to hsaKmtRuntimeEnable:
 * a link_map list of the loaded GPU code objects, l_addr being the load base.
 * A loaded code object's first PT_LOAD segment (vaddr 0) holds its ELF header
 * and program headers, and PT_DYNAMIC gives .dynsym, .dynstr and .hash. Device
 * memory is host memory here, so the loaded image is simply read. The
 * kernel_object is the address of the kernel descriptor symbol "<name>.kd". */
#define _GNU_SOURCE
#include <elf.h>
#include <link.h>
#include <string.h>

#include "sim_core.h"

#ifndef EM_AMDGPU
#define EM_AMDGPU 224
#endif

static struct r_debug *rdebug;

void sim_set_rdebug(void *r) {
  __atomic_store_n(&rdebug, (struct r_debug *)r, __ATOMIC_RELEASE);
}

static const char *lookup(uintptr_t base, uint64_t kobj) {
  const Elf64_Ehdr *eh = (const Elf64_Ehdr *)base;
  if (!eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_machine != EM_AMDGPU) return NULL;
  const Elf64_Phdr *ph = (const Elf64_Phdr *)(base + eh->e_phoff);
  const Elf64_Dyn *dyn = NULL;
  uint64_t end = 0;
  for (int i = 0; i < eh->e_phnum; i++) {
    if (ph[i].p_type == PT_DYNAMIC) dyn = (const Elf64_Dyn *)(base + ph[i].p_vaddr);
    if (ph[i].p_type == PT_LOAD && ph[i].p_vaddr + ph[i].p_memsz > end)
      end = ph[i].p_vaddr + ph[i].p_memsz;
  }
  if (!dyn || kobj < base || kobj >= base + end) return NULL;
  const Elf64_Sym *sym = NULL;
  const char *str = NULL;
  const uint32_t *hash = NULL;
  for (; dyn->d_tag != DT_NULL; dyn++) {
    if (dyn->d_tag == DT_SYMTAB)
      sym = (const Elf64_Sym *)(base + dyn->d_un.d_ptr);
    else if (dyn->d_tag == DT_STRTAB)
      str = (const char *)(base + dyn->d_un.d_ptr);
    else if (dyn->d_tag == DT_HASH)
      hash = (const uint32_t *)(base + dyn->d_un.d_ptr);
  }
  if (!sym || !str || !hash) return NULL;
  for (uint32_t i = 0; i < hash[1]; i++) /* nchain = number of symbols */
    if (sym[i].st_value && base + sym[i].st_value == kobj) return str + sym[i].st_name;
  return NULL;
}

const char *sim_kernel_name(uint64_t kobj) {
  struct r_debug *r = __atomic_load_n(&rdebug, __ATOMIC_ACQUIRE);
  if (!r || !kobj) return NULL;
  for (struct link_map *m = r->r_map; m; m = m->l_next) {
    const char *name = lookup(m->l_addr, kobj);
    if (name) return name;
  }
  return NULL;
}
