/* The .symtab reader of the backtrace symbolizer (src/tracer/core/
 * backtrace_elf.c): names a static function of this (non -rdynamic)
 * program that dladdr cannot, and gives no name, without reading out of
 * bounds, for truncated, corrupted or non-ELF files. */
#define _GNU_SOURCE
#include "check.h"
#include "core/backtrace_elf.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

__attribute__((noinline)) static int hidden_function(int x) {
  __asm__ volatile("" ::: "memory");
  return x * 3 + 1;
}

static char *slurp(const char *path, size_t *n) {
  int fd = open(path, O_RDONLY);
  size_t cap = 1 << 20, len = 0;
  char *b = malloc(cap);
  ssize_t r;
  while (fd >= 0 && (r = read(fd, b + len, cap - len)) > 0) {
    len += (size_t)r;
    if (len == cap) b = realloc(b, cap *= 2);
  }
  if (fd >= 0) close(fd);
  *n = len;
  return b;
}

static void put(const char *path, const void *p, size_t n) {
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  CHECK(fd >= 0 && write(fd, p, n) == (ssize_t)n);
  close(fd);
}

int main(void) {
  Dl_info info;
  uintptr_t fn = (uintptr_t)(void *)hidden_function;
  CHECK(dladdr((void *)fn, &info) && info.dli_sname == NULL); /* dladdr cannot */
  uint64_t off = 99;
  const char *name = rtg_bt_symtab_lookup(info.dli_fname, info.dli_fbase, fn + 2, &off);
  CHECK(name && !strcmp(name, "hidden_function"));
  CHECK_U64(off, 2);
  CHECK(hidden_function(1) == 4);

  /* damaged copies of this program, each as a module of its own (the key
   * is the base address: fake ones, never dereferenced) */
  size_t n;
  char *exe = slurp("/proc/self/exe", &n);
  CHECK(n > 4096);
  const size_t cuts[] = {0, 10, 64, 65, 4096, n / 2, n - 1};
  for (size_t i = 0; i < sizeof cuts / sizeof *cuts; i++) {
    put("cut.elf", exe, cuts[i]);
    CHECK(rtg_bt_symtab_lookup("cut.elf", (void *)(0x10000 * (i + 1)), 0x10000 * (i + 1) + 0x1100,
                               &off) == NULL ||
          cuts[i] == n - 1);
  }
  /* section headers and the symbol table's entries pointing anywhere */
  char *bad = malloc(n);
  unsigned seed = 12345;
  for (int round = 0; round < 200; round++) {
    memcpy(bad, exe, n);
    for (int k = 0; k < 8; k++) {
      seed = seed * 1103515245u + 12345u;
      size_t at = round < 100 ? 16 + seed % 48 /* the ELF header */ : seed % n;
      bad[at] = (char)(seed >> 16);
    }
    put("bad.elf", bad, n);
    uintptr_t base = 0x1000000u * (uintptr_t)(round + 1);
    (void)rtg_bt_symtab_lookup("bad.elf", (void *)base, base + 0x1234, &off);
    if (round % 30 == 29) rtg_bt_symtab_free(); /* the module table is small */
  }
  put("text.elf", "not an ELF file\n", 16);
  CHECK(rtg_bt_symtab_lookup("text.elf", (void *)0x7000, 0x7100, &off) == NULL);
  CHECK(rtg_bt_symtab_lookup("/nonexistent", (void *)0x8000, 0x8100, &off) == NULL);
  rtg_bt_symtab_free();
  free(bad);
  free(exe);
  return check_done(__FILE__);
}
