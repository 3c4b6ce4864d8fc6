/* vm.c - how the simulated engines reach memory by GPU address.
 *
 * A GPU address is the CPU address of the same byte, except inside a
 * mapping of the program's own memory that the driver placed elsewhere in
 * the GPU's address space: with the kernel-driver front end, the thunk
 * registers user memory (hsa_amd_memory_lock, hipHostRegister, ROCclr's
 * pinned staging of a large pageable hipMemcpy) as a KFD userptr object at a
 * GPU address of its own aperture. The front end translates one address
 * (sim_gpu_to_cpu); these helpers split an access at the edges of such
 * mappings, so SDMA packets and emulated kernels may name any GPU address. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "sim_core.h"

static uint64_t min3(uint64_t a, uint64_t b, uint64_t c) {
  uint64_t m = a < b ? a : b;
  return m < c ? m : c;
}

void *sim_vm_ptr(uint64_t va, uint64_t len) {
  uint64_t span;
  void *p = sim_gpu_to_cpu(va, &span);
  return len <= span ? p : NULL;
}

/* Copies between GPU ranges piece by piece; overlapping ranges copy right
 * where each piece is one memmove (the whole copy, unless it crosses a
 * mapping's edge). */
void sim_vm_copy(uint64_t dst, uint64_t src, uint64_t n) {
  while (n) {
    uint64_t dspan, sspan;
    char *d = sim_gpu_to_cpu(dst, &dspan);
    const char *s = sim_gpu_to_cpu(src, &sspan);
    uint64_t k = min3(n, dspan, sspan);
    memmove(d, s, k);
    dst += k, src += k, n -= k;
  }
}

/* Between a GPU range and a CPU buffer, in either direction. */
static void vm_transfer(uint64_t va, char *buf, uint64_t n, int to_gpu) {
  while (n) {
    uint64_t span;
    char *p = sim_gpu_to_cpu(va, &span);
    uint64_t k = n < span ? n : span;
    if (to_gpu)
      memcpy(p, buf, k);
    else
      memcpy(buf, p, k);
    va += k, buf += k, n -= k;
  }
}

char *sim_view_open(sim_view_t *v, uint64_t va, uint64_t len) {
  v->va = va, v->len = len, v->bounced = 0;
  v->p = sim_vm_ptr(va, len);
  if (v->p || !len) return v->p;
  v->p = malloc(len);
  if (!v->p) return NULL;
  v->bounced = 1;
  vm_transfer(va, v->p, len, 0);
  return v->p;
}

void sim_view_close(sim_view_t *v, int written) {
  if (!v->bounced) return;
  if (written) vm_transfer(v->va, v->p, v->len, 1);
  free(v->p);
  v->p = NULL, v->bounced = 0;
}
